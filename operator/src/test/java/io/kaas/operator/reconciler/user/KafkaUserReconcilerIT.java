package io.kaas.operator.reconciler.user;

import static io.kaas.operator.model.user.Users.user;
import static io.kaas.operator.model.user.Users.withAcl;
import static io.kaas.operator.model.user.Users.withPasswordFrom;
import static io.kaas.operator.model.user.Users.withQuotas;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonAclStore;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclPatternType;
import io.kaas.adapter.k8s.crd.AclResourceType;
import io.kaas.adapter.k8s.crd.AclRuleType;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import io.kaas.operator.DevApiServerHarness;
import io.kaas.operator.model.ReadyCondition;
import io.kaas.operator.model.user.KafkaScram;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real java-operator-sdk {@code Operator} reconciling KafkaUsers against the development API server, with a
 * temporary directory as the shared volume. Assertions read {@code credentials.json} and {@code acls.json} through the
 * stores the brokers read them with, and prove a SCRAM credential with Apache Kafka's own SCRAM client and server.
 */
class KafkaUserReconcilerIT {
    private static final byte[] SALT = "a-salt-for-credentials-in-tests".getBytes(StandardCharsets.UTF_8);
    private static final String NAMESPACE = DevApiServerHarness.NAMESPACE;
    private static final Duration NO_SWEEP_AFTER_THE_FIRST = Duration.ofHours(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    private DevApiServerHarness world;
    private KubernetesClient client;
    private JsonCredentialStore credentials;
    private JsonAclStore acls;

    @BeforeEach
    void startApiServer() {
        world = new DevApiServerHarness(data);
        client = world.client();
        JsonFiles files = new JsonFiles(new NioFilesystem(), new JacksonCodec());
        credentials = new JsonCredentialStore(new DataLayout(data), files);
        acls = new JsonAclStore(new DataLayout(data), files);
    }

    @AfterEach
    void stop() {
        world.close();
    }

    @Test
    void aUserWithoutAPasswordGetsAGeneratedSecretItOwnsAndTheDeclaredMechanismsCredential() throws Exception {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        KafkaUser created = client.resource(user("alice", AuthenticationType.SCRAM_SHA_512)).create();

        assertReady("alice", 1);
        Secret secret = client.secrets().withName("alice-kafka-credentials").get();
        assertThat(secret.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("KafkaUser");
            assertThat(owner.getApiVersion()).isEqualTo("kaas.rs/v1alpha1");
            assertThat(owner.getName()).isEqualTo("alice");
            assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
        });
        String password = decode(secret, "password");
        assertThat(password).hasSize(32);
        assertThat(decode(secret, "sasl.jaas.config")).isEqualTo("org.apache.kafka.common.security.scram."
                + "ScramLoginModule required username=\"alice\" password=\"" + password + "\";");
        StoredUser alice = credentials.read().user("alice").orElseThrow();
        assertThat(alice.scram()).containsOnlyKeys(ScramMechanism.SCRAM_SHA_512);
        ScramCredential credential = alice.scram(ScramMechanism.SCRAM_SHA_512).orElseThrow();
        assertThat(credential.iterations()).isGreaterThanOrEqualTo(4096);
        assertThat(credential.matches(ScramMechanism.SCRAM_SHA_512, password)).isTrue();
        assertThat(KafkaScram.authenticates(ScramMechanism.SCRAM_SHA_512, "alice", password, credential)).isTrue();
        assertThat(KafkaScram.authenticates(ScramMechanism.SCRAM_SHA_512, "alice", password + "x", credential))
                .isFalse();
    }

    @Test
    void aSecretOfTheGeneratedNameThatIsNotTheUsersIsNeverOverwritten() {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        createSecret("grace-kafka-credentials", "token", "someone else's");
        client.resource(user("grace", AuthenticationType.SCRAM_SHA_512)).create();

        Condition refused = awaitCondition("grace", 1);
        assertThat(refused.getStatus()).isEqualTo("False");
        assertThat(refused.getReason()).isEqualTo("SecretConflict");
        Secret untouched = client.secrets().withName("grace-kafka-credentials").get();
        assertThat(untouched.getData()).containsOnlyKeys("token");
        assertThat(untouched.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(credentials.read().user("grace")).isEmpty();
    }

    @Test
    void aReferencedSecretsPasswordBecomesTheCredential() throws Exception {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        createSecret("bob-password", "pw", "correct horse battery staple");
        client.resource(withPasswordFrom(user("bob", AuthenticationType.SCRAM_SHA_256), "bob-password", "pw")).create();

        assertReady("bob", 1);
        StoredUser bob = credentials.read().user("bob").orElseThrow();
        assertThat(bob.scram()).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
        ScramCredential credential = bob.scram(ScramMechanism.SCRAM_SHA_256).orElseThrow();
        assertThat(KafkaScram.authenticates(ScramMechanism.SCRAM_SHA_256, "bob", "correct horse battery staple",
                credential)).isTrue();
        var kafkas = KafkaScram.derive(ScramMechanism.SCRAM_SHA_256, "correct horse battery staple", credential);
        assertThat(kafkas.storedKey()).isEqualTo(credential.storedKey());
        assertThat(kafkas.serverKey()).isEqualTo(credential.serverKey());
        assertThat(client.secrets().withName("bob-kafka-credentials").get()).as("nothing generated").isNull();
    }

    @Test
    void aMissingSecretParksTheUserUntilTheSecretAppears() {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        client.resource(withPasswordFrom(user("carol", AuthenticationType.SCRAM_SHA_512), "carol-password", "pw"))
                .create();

        Condition parked = awaitCondition("carol", 1);
        assertThat(parked.getStatus()).isEqualTo("False");
        assertThat(parked.getReason()).isEqualTo("SecretNotFound");
        assertThat(parked.getMessage()).contains("carol-password");
        String resourceVersion = users().withName("carol").get().getMetadata().getResourceVersion();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(users().withName("carol").get().getMetadata().getResourceVersion())
                    .as("parked, not rewriting its status").isEqualTo(resourceVersion);
            assertThat(credentials.read().user("carol")).isEmpty();
        });

        createSecret("carol-password", "pw", "finally");

        // Well inside the parked user's one-minute retry: the Secret's own event brings it back.
        assertThat(await().atMost(Duration.ofSeconds(20)).until(() -> condition("carol"),
                c -> c != null && "True".equals(c.getStatus())).getReason()).isEqualTo("Materialized");
        assertThat(credentials.read().user("carol").orElseThrow().scram(ScramMechanism.SCRAM_SHA_512).orElseThrow()
                .matches(ScramMechanism.SCRAM_SHA_512, "finally")).isTrue();
    }

    @Test
    void aChangedPasswordRotatesTheCredentialAndAnUnchangedOneKeepsIt() {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        createSecret("dave-password", "pw", "first");
        client.resource(withPasswordFrom(user("dave", AuthenticationType.SCRAM_SHA_512), "dave-password", "pw"))
                .create();
        assertReady("dave", 1);
        ScramCredential first = scram("dave");

        users().withName("dave").edit(u -> withQuotas(u, 1_000_000L, null, null)); // generation 2, same password
        assertReady("dave", 2);
        assertThat(scram("dave")).as("not re-derived: same salt").isEqualTo(first);

        client.secrets().withName("dave-password").edit(s -> new SecretBuilder(s)
                .withData(Map.of("pw", encode("second"))).build());

        ScramCredential second = await().atMost(Duration.ofSeconds(20)).until(() -> scram("dave"),
                c -> !c.equals(first));
        assertThat(second.matches(ScramMechanism.SCRAM_SHA_512, "second")).isTrue();
        assertThat(second.matches(ScramMechanism.SCRAM_SHA_512, "first")).isFalse();
        assertThat(second.salt()).isNotEqualTo(first.salt());
    }

    @Test
    void aPreDerivedCredentialPassesThroughVerbatim() {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        ScramCredential given = ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "never seen by the operator",
                SALT, 8192);
        KafkaUser erin = user("erin", AuthenticationType.SCRAM_SHA_512);
        Base64.Encoder b64 = Base64.getEncoder();
        var scram = new io.kaas.adapter.k8s.crd.ScramCredential();
        scram.setSalt(b64.encodeToString(given.salt()));
        scram.setIterations(given.iterations());
        scram.setStoredKey(b64.encodeToString(given.storedKey()));
        scram.setServerKey(b64.encodeToString(given.serverKey()));
        erin.getSpec().getAuthentication().setScram(scram);
        client.resource(erin).create();

        assertReady("erin", 1);
        assertThat(credentials.read().user("erin").orElseThrow().scram())
                .isEqualTo(Map.of(ScramMechanism.SCRAM_SHA_512, given));
        assertThat(client.secrets().withName("erin-kafka-credentials").get()).isNull();
    }

    @Test
    void aclsJsonIsRebuiltFromEveryUserAndADeletedUsersEntryAndAclsGoAtOnce() {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST); // no sweep pass comes: the deletion itself must clean up
        client.resource(withAcl(user("alice", AuthenticationType.TLS), AclResourceType.TOPIC, "orders", null, null,
                null, AclOperation.READ, AclOperation.DESCRIBE)).create();
        client.resource(withAcl(withAcl(user("bob", AuthenticationType.TLS), AclResourceType.TOPIC, "orders-",
                AclPatternType.PREFIX, "10.1.2.3", AclRuleType.DENY, AclOperation.ALL), AclResourceType.CLUSTER, null,
                null, null, null, AclOperation.IDEMPOTENT_WRITE)).create();
        assertReady("alice", 1);
        assertReady("bob", 1);

        KafkaPrincipal alice = KafkaPrincipal.user("alice");
        KafkaPrincipal bob = KafkaPrincipal.user("bob");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(acls.read()).containsExactly(
                topic(alice, "*", "orders", io.kaas.domain.security.AclPatternType.LITERAL,
                        io.kaas.domain.security.AclOperation.READ, AclPermission.ALLOW),
                topic(alice, "*", "orders", io.kaas.domain.security.AclPatternType.LITERAL,
                        io.kaas.domain.security.AclOperation.DESCRIBE, AclPermission.ALLOW),
                topic(bob, "10.1.2.3", "orders-", io.kaas.domain.security.AclPatternType.PREFIXED,
                        io.kaas.domain.security.AclOperation.ALL, AclPermission.DENY),
                new AclBinding(bob, "*", io.kaas.domain.security.AclResourceType.CLUSTER, "kafka-cluster",
                        io.kaas.domain.security.AclPatternType.LITERAL,
                        io.kaas.domain.security.AclOperation.IDEMPOTENT_WRITE, AclPermission.ALLOW)));
        assertThat(credentials.read().users()).containsOnlyKeys("alice", "bob");

        users().withName("bob").delete();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(credentials.read().users()).containsOnlyKeys("alice");
            assertThat(acls.read()).extracting(AclBinding::principal).containsOnly(alice).hasSize(2);
        });
    }

    @Test
    void aTlsUserIsAnEntryUnderItsNameWithoutACredentialAndWithItsQuotas() throws IOException {
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
        client.resource(withQuotas(user("billing", AuthenticationType.TLS), 1_048_576L, 2_097_152L, 40.0)).create();

        assertReady("billing", 1);
        assertThat(credentials.read().user("billing")).contains(new StoredUser("billing", Map.of(),
                new UserQuotas(1_048_576L, 2_097_152L, 40.0, null)));
        JsonNode file = JSON.readTree(Files.readString(data.resolve("__cluster/credentials.json"),
                StandardCharsets.UTF_8));
        assertThat(file.at("/users/billing/quotas")).isEqualTo(JSON.readTree(
                "{\"producer_byte_rate\":1048576,\"consumer_byte_rate\":2097152,\"request_percentage\":40.0}"));
    }

    @Test
    void aUserBeingDeletedIsLeftUntouched() throws IOException {
        world.startOperator(Duration.ofMillis(200));
        createSecret("frank-password", "pw", "before");
        KafkaUser held = withAcl(withPasswordFrom(user("frank", AuthenticationType.SCRAM_SHA_512), "frank-password",
                "pw"), AclResourceType.TOPIC, "orders", null, null, null, AclOperation.READ);
        held.getMetadata().getFinalizers().add("example.com/hold"); // someone else's: deletion waits for it
        client.resource(held).create();
        assertReady("frank", 1);
        String credentialsBefore = Files.readString(data.resolve("__cluster/credentials.json"));
        String aclsBefore = Files.readString(data.resolve("__cluster/acls.json"));

        users().withName("frank").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> users().withName("frank").get().isMarkedForDeletion());
        users().withName("frank").edit(u -> withAcl(u, AclResourceType.GROUP, "g", null, null, null,
                AclOperation.READ));
        client.secrets().withName("frank-password").edit(s -> new SecretBuilder(s)
                .withData(Map.of("pw", encode("after"))).build());

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(data.resolve("__cluster/credentials.json")).hasContent(credentialsBefore);
            assertThat(data.resolve("__cluster/acls.json")).hasContent(aclsBefore);
            assertThat(ReadyCondition.of(users().withName("frank").get().getStatus().getConditions())
                    .getObservedGeneration()).isEqualTo(1L);
        });
    }

    @Test
    void theSweepRemovesEntriesAndAclsNoKafkaUserNames() {
        // A KafkaUser deleted while no operator watched: its entry and rules are all that is left of it.
        KafkaPrincipal ghost = KafkaPrincipal.user("ghost");
        credentials.write(Credentials.EMPTY.with(new StoredUser("ghost", Map.of(ScramMechanism.SCRAM_SHA_512,
                ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "boo", SALT, 4096)), UserQuotas.NONE)));
        acls.write(List.of(topic(ghost, "*", "orders", io.kaas.domain.security.AclPatternType.LITERAL,
                io.kaas.domain.security.AclOperation.WRITE, AclPermission.ALLOW)));
        client.resource(withAcl(user("alice", AuthenticationType.TLS), AclResourceType.TOPIC, "orders", null, null,
                null, AclOperation.READ)).create();

        world.startOperator(Duration.ofMillis(200));

        assertReady("alice", 1);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(credentials.read().users()).containsOnlyKeys("alice");
            assertThat(acls.read()).extracting(AclBinding::principal).containsExactly(KafkaPrincipal.user("alice"));
        });
    }


    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<KafkaUser,
            io.fabric8.kubernetes.api.model.KubernetesResourceList<KafkaUser>, Resource<KafkaUser>> users() {
        return client.resources(KafkaUser.class).inNamespace(NAMESPACE);
    }

    private ScramCredential scram(String user) {
        return credentials.read().user(user).orElseThrow().scram(ScramMechanism.SCRAM_SHA_512).orElseThrow();
    }

    private void createSecret(String name, String key, String password) {
        client.resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .withData(Map.of(key, encode(password))).build()).create();
    }

    private static String encode(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }

    private static AclBinding topic(KafkaPrincipal principal, String host, String name,
                                    io.kaas.domain.security.AclPatternType pattern,
                                    io.kaas.domain.security.AclOperation operation, AclPermission permission) {
        return new AclBinding(principal, host, io.kaas.domain.security.AclResourceType.TOPIC, name, pattern, operation,
                permission);
    }

    private void assertReady(String name, long generation) {
        Condition condition = awaitCondition(name, generation);
        assertThat(condition.getStatus()).as("Ready of " + name + ": " + condition.getMessage()).isEqualTo("True");
        assertThat(condition.getReason()).isEqualTo("Materialized");
    }

    /** The Ready condition once it describes {@code generation}. */
    private Condition awaitCondition(String name, long generation) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> condition(name),
                c -> c != null && Long.valueOf(generation).equals(c.getObservedGeneration()));
    }

    private Condition condition(String name) {
        KafkaUser user = users().withName(name).get();
        return user == null || user.getStatus() == null ? null : ReadyCondition.of(user.getStatus().getConditions());
    }
}
