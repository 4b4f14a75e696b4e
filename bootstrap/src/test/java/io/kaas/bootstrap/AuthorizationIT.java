package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonAclStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code KAAS_AUTHORIZATION_TYPE=simple} against real clients: what Apache's authorizer allows and denies, the
 * exceptions clients raise, hot reload of {@code acls.json} and the ACL admin APIs.
 */
class AuthorizationIT {
    /**
     * Who the clients are and how they log in: ANONYMOUS over plaintext until authentication exists; then a
     * SCRAM user and its SASL settings, and nothing else here changes.
     */
    private static final KafkaPrincipal CLIENT = KafkaPrincipal.ANONYMOUS;
    private static final Map<String, Object> CLIENT_SECURITY = Map.of();

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(Map.of(
            "KAAS_AUTHORIZATION_TYPE", "simple",
            "KAAS_SUPER_USERS", "User:operator;User:admin",
            "KAAS_SECURITY_RELOAD_INTERVAL_MS", "100"));

    private static final AtomicInteger VERSION = new AtomicInteger();

    private String base;

    /** Each test starts from ACLs that allow everything, creates what it needs, then narrows them. */
    @BeforeEach
    void allowEverything() {
        base = EmbeddedKaas.uniqueTopicName("acl");
        apply(allow(AclResourceType.TOPIC, "*", AclPatternType.LITERAL, AclOperation.ALL),
                allow(AclResourceType.GROUP, "*", AclPatternType.LITERAL, AclOperation.ALL),
                allow(AclResourceType.TRANSACTIONAL_ID, "*", AclPatternType.LITERAL, AclOperation.ALL),
                allow(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclPatternType.LITERAL, AclOperation.ALL));
    }

    @Test
    void withoutAnAclEverythingIsDenied() throws Exception {
        String topic = base + "-t";
        KAAS.kaas().createTopic(topic, 1);
        apply();

        assertThatThrownBy(() -> producer().send(new ProducerRecord<>(topic, "v".getBytes())).get(15, TimeUnit.SECONDS))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThat(admin().listTopics().names().get()).doesNotContain(topic);
        KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of());
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10))).isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aPrefixedAclCoversItsPrefixAndALiteralOnlyItsName() throws Exception {
        KAAS.kaas().createTopics(Map.of(base + "-orders-eu", 1, base + "-orders", 1, base + "-payments", 1,
                base + "-payments-eu", 1));
        apply(allow(AclResourceType.TOPIC, base + "-orders-", AclPatternType.PREFIXED, AclOperation.WRITE),
                allow(AclResourceType.TOPIC, base + "-payments", AclPatternType.LITERAL, AclOperation.WRITE));
        KafkaProducer<byte[], byte[]> producer = producer();

        assertThat(sends(producer, base + "-orders-eu")).isTrue();
        assertThat(sends(producer, base + "-payments")).isTrue();
        assertThat(sends(producer, base + "-orders")).as("shorter than the prefix").isFalse();
        assertThat(sends(producer, base + "-payments-eu")).as("a literal is no prefix").isFalse();
    }

    @Test
    void denyWinsOverAllow() throws Exception {
        KAAS.kaas().createTopics(Map.of(base + "-secret", 1, base + "-public", 1));
        apply(allow(AclResourceType.TOPIC, "*", AclPatternType.LITERAL, AclOperation.ALL),
                acl(AclResourceType.TOPIC, base + "-secret", AclPatternType.LITERAL, AclOperation.WRITE,
                        AclPermission.DENY));
        KafkaProducer<byte[], byte[]> producer = producer();

        assertThat(sends(producer, base + "-public")).isTrue();
        assertThat(sends(producer, base + "-secret")).isFalse();
        assertThat(admin().listTopics().names().get()).as("a denied WRITE leaves DESCRIBE")
                .contains(base + "-secret", base + "-public");
    }

    @Test
    void aConsumerDeniedReadOnItsGroupGetsGroupAuthorizationException() throws Exception {
        String topic = base + "-t";
        KAAS.kaas().createTopic(topic, 1);
        producer().send(new ProducerRecord<>(topic, "v".getBytes())).get(15, TimeUnit.SECONDS);
        apply(allow(AclResourceType.TOPIC, topic, AclPatternType.LITERAL, AclOperation.READ),
                allow(AclResourceType.GROUP, "*", AclPatternType.LITERAL, AclOperation.ALL),
                acl(AclResourceType.GROUP, base + "-denied", AclPatternType.LITERAL, AclOperation.READ,
                        AclPermission.DENY));

        KafkaConsumer<byte[], byte[]> denied = groupConsumer(base + "-denied");
        denied.subscribe(List.of(topic));
        assertThatThrownBy(() -> denied.poll(Duration.ofSeconds(10))).isInstanceOf(GroupAuthorizationException.class);

        KafkaConsumer<byte[], byte[]> allowed = groupConsumer(base + "-allowed");
        allowed.subscribe(List.of(topic));
        assertThat(EmbeddedKaas.consume(allowed, 1, Duration.ofSeconds(20))).hasSize(1);
        allowed.commitSync();
    }

    @Test
    void aTransactionalProducerNeedsWriteOnItsTransactionalId() throws Exception {
        String topic = base + "-t";
        String transactionalId = base + "-tx";
        KAAS.kaas().createTopic(topic, 1);
        apply(allow(AclResourceType.TOPIC, topic, AclPatternType.LITERAL, AclOperation.WRITE),
                allow(AclResourceType.TRANSACTIONAL_ID, transactionalId, AclPatternType.LITERAL, AclOperation.DESCRIBE));

        KafkaProducer<byte[], byte[]> refused = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId));
        assertThatThrownBy(refused::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);

        apply(allow(AclResourceType.TOPIC, topic, AclPatternType.LITERAL, AclOperation.WRITE),
                allow(AclResourceType.TRANSACTIONAL_ID, transactionalId, AclPatternType.LITERAL, AclOperation.WRITE));
        KafkaProducer<byte[], byte[]> allowed = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId));
        allowed.initTransactions();
        allowed.beginTransaction();
        allowed.send(new ProducerRecord<>(topic, "in-txn".getBytes())).get(15, TimeUnit.SECONDS);
        allowed.commitTransaction();
    }

    @Test
    void aTopicThePrincipalMayNotDescribeIsHiddenAndRefused() throws Exception {
        KAAS.kaas().createTopics(Map.of(base + "-visible", 1, base + "-hidden", 1));
        apply(allow(AclResourceType.TOPIC, base + "-visible", AclPatternType.LITERAL, AclOperation.ALL));
        Admin admin = admin();

        assertThat(admin.listTopics().names().get()).contains(base + "-visible").doesNotContain(base + "-hidden");
        for (String name : List.of(base + "-hidden", base + "-never-created")) {
            assertThatThrownBy(() -> admin.describeTopics(List.of(name)).allTopicNames().get())
                    .as("existing or not, %s is answered the same", name)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        assertThatThrownBy(() -> producer().send(new ProducerRecord<>(base + "-hidden", "v".getBytes()))
                .get(15, TimeUnit.SECONDS)).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void superUsersBypassTheAcls() throws Exception {
        String topic = base + "-t";
        KAAS.kaas().createTopic(topic, 1);
        apply(acl(AclResourceType.TOPIC, "*", AclPatternType.LITERAL, AclOperation.ALL, AclPermission.DENY));
        assertThat(sends(producer(), topic)).isFalse();
        KAAS.kaas().closeClients();
        try {
            KAAS.kaas().restart(Map.of("KAAS_SUPER_USERS", "User:operator;" + CLIENT));
            assertThat(sends(producer(), topic)).isTrue();
            assertThat(admin().listTopics().names().get()).contains(topic);
        } finally {
            KAAS.kaas().closeClients();
            KAAS.kaas().restart();
        }
    }

    @Test
    void aChangeToAclsJsonTakesEffectWithoutARestart() throws Exception {
        String topic = base + "-t";
        KAAS.kaas().createTopic(topic, 1);
        apply();
        KafkaProducer<byte[], byte[]> producer = producer();
        assertThat(sends(producer, topic)).isFalse();

        store().write(withDescribe(List.of(allow(AclResourceType.TOPIC, topic, AclPatternType.LITERAL,
                AclOperation.WRITE))));

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> sends(producer, topic));
    }

    @Test
    void aclsCreatedDescribedAndDeletedThroughTheAdminApiSurviveARestart() throws Exception {
        apply(allow(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclPatternType.LITERAL, AclOperation.ALTER));
        org.apache.kafka.common.acl.AclBinding aliceReads = new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.TOPIC, base + "-orders", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", org.apache.kafka.common.acl.AclOperation.READ,
                        AclPermissionType.ALLOW));
        org.apache.kafka.common.acl.AclBinding bobDenied = new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.TOPIC, base + "-ord", PatternType.PREFIXED),
                new AccessControlEntry("User:bob", "10.0.0.1", org.apache.kafka.common.acl.AclOperation.WRITE,
                        AclPermissionType.DENY));
        admin().createAcls(List.of(aliceReads, bobDenied)).all().get();

        AclBindingFilter ordersMatch = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, base + "-orders", PatternType.MATCH),
                AccessControlEntryFilter.ANY);
        assertThat(admin().describeAcls(ordersMatch).values().get()).containsExactlyInAnyOrder(aliceReads, bobDenied);
        assertThat(store().read()).as("durable in acls.json").contains(
                new AclBinding(KafkaPrincipal.user("alice"), "*", AclResourceType.TOPIC, base + "-orders",
                        AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW),
                new AclBinding(KafkaPrincipal.user("bob"), "10.0.0.1", AclResourceType.TOPIC, base + "-ord",
                        AclPatternType.PREFIXED, AclOperation.WRITE, AclPermission.DENY));

        KAAS.kaas().closeClients();
        KAAS.kaas().restart();

        assertThat(admin().describeAcls(ordersMatch).values().get()).containsExactlyInAnyOrder(aliceReads, bobDenied);
        AclBindingFilter alice = new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:alice", null, org.apache.kafka.common.acl.AclOperation.ANY,
                        AclPermissionType.ANY));
        assertThat(admin().deleteAcls(List.of(alice)).all().get()).containsExactly(aliceReads);
        assertThat(admin().describeAcls(ordersMatch).values().get()).containsExactly(bobDenied);
    }

    @Test
    void theAclApisNeedAlterOnTheCluster() {
        apply();
        org.apache.kafka.common.acl.AclBinding binding = new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", org.apache.kafka.common.acl.AclOperation.READ,
                        AclPermissionType.ALLOW));

        assertThatThrownBy(() -> admin().createAcls(List.of(binding)).all().get())
                .hasCauseInstanceOf(ClusterAuthorizationException.class);
        assertThatThrownBy(() -> admin().deleteAcls(List.of(AclBindingFilter.ANY)).all().get())
                .hasCauseInstanceOf(ClusterAuthorizationException.class);
    }

    @Test
    void authorizedOperationsReportWhatTheAclsAllow() throws Exception {
        String topic = base + "-t";
        String group = base + "-g";
        KAAS.kaas().createTopic(topic, 1);
        KafkaConsumer<byte[], byte[]> member = groupConsumer(group);
        member.assign(List.of(new TopicPartition(topic, 0)));
        member.commitSync(Map.of(new TopicPartition(topic, 0), new org.apache.kafka.clients.consumer.OffsetAndMetadata(0)));
        apply(allow(AclResourceType.TOPIC, topic, AclPatternType.LITERAL, AclOperation.READ),
                allow(AclResourceType.GROUP, group, AclPatternType.LITERAL, AclOperation.DELETE));
        Admin admin = admin();

        assertThat(admin.describeTopics(List.of(topic), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                .allTopicNames().get().get(topic).authorizedOperations())
                .containsExactlyInAnyOrder(org.apache.kafka.common.acl.AclOperation.READ,
                        org.apache.kafka.common.acl.AclOperation.DESCRIBE);
        assertThat(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                .authorizedOperations().get()).containsExactly(org.apache.kafka.common.acl.AclOperation.DESCRIBE);
        assertThat(admin.describeConsumerGroups(List.of(group),
                        new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                .all().get().get(group).authorizedOperations())
                .containsExactlyInAnyOrder(org.apache.kafka.common.acl.AclOperation.DELETE,
                        org.apache.kafka.common.acl.AclOperation.DESCRIBE);
    }

    // ---------------------------------------------------------------- helpers

    private static AclBinding acl(AclResourceType type, String name, AclPatternType pattern, AclOperation operation,
                                  AclPermission permission) {
        return new AclBinding(CLIENT, AclBinding.WILDCARD, type, name, pattern, operation, permission);
    }

    private static AclBinding allow(AclResourceType type, String name, AclPatternType pattern, AclOperation operation) {
        return acl(type, name, pattern, operation, AclPermission.ALLOW);
    }

    private static JsonAclStore store() {
        return new JsonAclStore(new DataLayout(KAAS.kaas().dataDir()), new JsonFiles(new NioFilesystem(),
                new JacksonCodec()));
    }

    /** The ACLs plus DESCRIBE on the cluster (so the test can see what the broker enforces). */
    private static List<AclBinding> withDescribe(Collection<AclBinding> acls) {
        List<AclBinding> all = new ArrayList<>(acls);
        all.add(allow(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclPatternType.LITERAL,
                AclOperation.DESCRIBE));
        return all;
    }

    /**
     * Replaces {@code acls.json} with {@code acls} (and DESCRIBE on the cluster), then waits until the broker
     * enforces them: a marker ACL, unique to this version, shows in DescribeAcls.
     */
    private void apply(AclBinding... acls) {
        String marker = "acl-version-" + VERSION.incrementAndGet();
        List<AclBinding> all = withDescribe(List.of(acls));
        all.add(acl(AclResourceType.TOPIC, marker, AclPatternType.LITERAL, AclOperation.READ, AclPermission.DENY));
        store().write(all);
        AclBindingFilter markerFilter = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, marker, PatternType.LITERAL), AccessControlEntryFilter.ANY);
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(CLIENT_SECURITY))) {
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                    .until(() -> admin.describeAcls(markerFilter).values().get().size() == 1);
        }
    }

    /** Whether a record sent to {@code topic} is acknowledged; false when the broker refuses it for authorization. */
    private static boolean sends(KafkaProducer<byte[], byte[]> producer, String topic) throws Exception {
        try {
            producer.send(new ProducerRecord<>(topic, "v".getBytes())).get(15, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                return false;
            }
            throw e;
        }
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return producer(Map.of());
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(CLIENT_SECURITY);
        config.putAll(overrides);
        return KAAS.kaas().producer(config);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(CLIENT_SECURITY);
        config.putAll(overrides);
        return KAAS.kaas().consumer(config);
    }

    private static KafkaConsumer<byte[], byte[]> groupConsumer(String group) {
        return KAAS.kaas().track(new KafkaConsumer<>(KAAS.kaas().groupConsumerConfig(group, CLIENT_SECURITY)));
    }

    private static Admin admin() {
        return KAAS.kaas().admin(CLIENT_SECURITY);
    }
}
