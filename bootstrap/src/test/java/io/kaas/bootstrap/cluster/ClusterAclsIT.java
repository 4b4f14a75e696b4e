package io.kaas.bootstrap.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclRule;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.LocalCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a cluster the ACL admin APIs write KafkaUsers, the resources the operator rebuilds acls.json from: kafka-acls'
 * calls through a real AdminClient land on the principal's KafkaUser (created when the principal has none), the
 * operator and the brokers' reload put them in effect, a SCRAM client is allowed and refused by them, and DeleteAcls
 * takes them back out of the KafkaUser.
 */
class ClusterAclsIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String USER = "orders-app";

    @TempDir
    Path dir;

    @Test
    void aclsWrittenThroughTheAdminApiLiveOnKafkaUsersAndAreEnforced() throws Exception {
        // Plaintext clients are User:ANONYMOUS, made a super user to administer; SCRAM clients meet the ACLs.
        try (LocalCluster cluster = LocalCluster.start(1, dir.resolve("cluster"), Map.of(
                "KAAS_AUTHORIZATION_TYPE", "simple", "KAAS_SUPER_USERS", "User:ANONYMOUS"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1), new NewTopic("payments", 1, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);

            AclBinding writeOrd = allow(ResourceType.TOPIC, "ord", PatternType.PREFIXED,
                    org.apache.kafka.common.acl.AclOperation.WRITE);
            AclBinding readBilling = allow(ResourceType.GROUP, "billing", PatternType.LITERAL,
                    org.apache.kafka.common.acl.AclOperation.READ);
            admin.createAcls(List.of(writeOrd, readBilling)).all().get(30, TimeUnit.SECONDS);

            KafkaUser created = kubernetes.resources(KafkaUser.class).withName(USER).get();
            assertThat(created).as("CreateAcls made the principal a KafkaUser").isNotNull();
            List<AclRule> rules = created.getSpec().getAuthorization().getAcls();
            assertThat(rules).extracting(rule -> rule.getResource().getType() + " " + rule.getResource().getName()
                    + " " + rule.getResource().getPatternType() + " " + rule.getOperations())
                    .containsExactly("TOPIC ord PREFIX [WRITE]", "GROUP billing LITERAL [READ]");
            await("the operator rebuilt acls.json and the broker reloaded it").atMost(DEADLINE).untilAsserted(() ->
                    assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS))
                            .containsExactlyInAnyOrder(writeOrd, readBilling));

            assertThatThrownBy(() -> admin.createAcls(List.of(new AclBinding(
                    new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                    new AccessControlEntry("User:CN=orders,O=acme", "*",
                            org.apache.kafka.common.acl.AclOperation.READ, AclPermissionType.ALLOW))))
                    .all().get(30, TimeUnit.SECONDS))
                    .as("a principal no KafkaUser can be named after").cause()
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("cannot name one");

            // The user authenticates once its KafkaUser asks for a SCRAM credential; the ACLs stay as written.
            kubernetes.resources(KafkaUser.class).withName(USER).edit(user -> {
                UserAuthentication scram = new UserAuthentication();
                scram.setType(AuthenticationType.SCRAM_SHA_512);
                user.getSpec().setAuthentication(scram);
                return user;
            });
            Map<String, Object> ordersApp = cluster.scramClient(USER, password(kubernetes));
            await("the SCRAM user may write to orders").atMost(DEADLINE).ignoreExceptions()
                    .untilAsserted(() -> assertThat(send(ordersApp, "orders")).isEqualTo("ok"));
            assertThat(send(ordersApp, "payments")).isEqualTo(TopicAuthorizationException.class.getSimpleName());

            AclBindingFilter writes = new AclBindingFilter(ResourcePatternFilter.ANY, new AccessControlEntryFilter(
                    "User:" + USER, null, org.apache.kafka.common.acl.AclOperation.WRITE, AclPermissionType.ANY));
            assertThat(admin.deleteAcls(List.of(writes)).all().get(30, TimeUnit.SECONDS)).containsExactly(writeOrd);
            assertThat(kubernetes.resources(KafkaUser.class).withName(USER).get().getSpec().getAuthorization()
                    .getAcls()).extracting(AclRule::getOperations).containsExactly(List.of(AclOperation.READ));
            await("the removed ACL stops applying").atMost(DEADLINE).untilAsserted(() ->
                    assertThat(send(ordersApp, "orders")).isEqualTo(TopicAuthorizationException.class.getSimpleName()));
        }
    }

    private static AclBinding allow(ResourceType type, String name, PatternType pattern,
                                    org.apache.kafka.common.acl.AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + USER, "*", operation, AclPermissionType.ALLOW));
    }

    /** One record to {@code topic}: "ok", or the simple name of the error it failed with. */
    private static String send(Map<String, Object> client, String topic) throws Exception {
        Map<String, Object> settings = new HashMap<>(client);
        settings.putAll(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                (String) client.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG), settings))) {
            producer.send(new ProducerRecord<>(topic, "acl-probe".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
            return "ok";
        } catch (ExecutionException e) {
            return e.getCause().getClass().getSimpleName();
        }
    }

    /** The password the operator generated into the user's Secret. */
    private static String password(KubernetesClient kubernetes) {
        String secret = USER + "-kafka-credentials";
        await("the operator generated " + secret).atMost(DEADLINE).until(() ->
                kubernetes.secrets().withName(secret).get() != null);
        Secret generated = kubernetes.secrets().withName(secret).get();
        return new String(Base64.getDecoder().decode(generated.getData().get("password")), StandardCharsets.UTF_8);
    }
}
