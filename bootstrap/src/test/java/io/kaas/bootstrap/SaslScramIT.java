package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real Java clients over SASL_PLAINTEXT with SCRAM-SHA-512 and SCRAM-SHA-256, on a broker with three
 * listeners (KAAS_LISTENERS): plaintext, SCRAM-SHA-512 and SCRAM-SHA-256, each on its own
 * ephemeral port. Users come from {@code ./kaas user add}'s code path and from
 * AdminClient.alterUserScramCredentials (KIP-554).
 */
class SaslScramIT {
    private static final String LISTENERS = "["
            + "{\"name\":\"plain\",\"port\":0,\"type\":\"internal\",\"tls\":false,\"authentication\":{\"type\":\"none\"}},"
            + "{\"name\":\"scram512\",\"port\":0,\"type\":\"internal\",\"tls\":false,\"authentication\":{\"type\":\"scram-sha-512\"}},"
            + "{\"name\":\"scram256\",\"port\":0,\"type\":\"internal\",\"tls\":false,\"authentication\":{\"type\":\"scram-sha-256\"}}]";
    private static final String GENERIC_FAILURE =
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512";

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS)
            .withEnv("KAAS_LISTENERS", LISTENERS);

    @BeforeAll
    static void users() throws Exception {
        // alice through ./kaas user add's code path, while the broker runs; bob through KIP-554 on the plain listener
        assertThat(addUser(KAAS.kaas(), "alice", "SCRAM-SHA-512", "alice-secret")).isZero();
        KAAS.kaas().admin().alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("bob",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "bob-secret"))).all().get();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            try (Admin admin = Admin.create(KAAS.kaas().adminConfig(sasl("scram512", "SCRAM-SHA-512", "alice",
                    "alice-secret")))) {
                return admin.describeCluster().clusterId().get() != null;
            }
        });
    }

    static Stream<Arguments> scramListeners() {
        return Stream.of(Arguments.of("scram512", "SCRAM-SHA-512", "alice", "alice-secret"),
                Arguments.of("scram256", "SCRAM-SHA-256", "bob", "bob-secret"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("scramListeners")
    void producerConsumerGroupTransactionsAndAdminWorkOverSasl(String listener, String mechanism, String user,
                                                              String password) throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Map<String, Object> sasl = sasl(listener, mechanism, user, password);
        String topic = EmbeddedKaas.uniqueTopicName("sasl-" + listener);
        Admin admin = kaas.admin(sasl);
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        assertThat(admin.describeCluster().nodes().get()).extracting(Node::port)
                .containsOnly(kaas.broker().port(listener));

        KafkaProducer<byte[], byte[]> producer = kaas.producer(merge(sasl,
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "txn-" + listener)));
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < 6; i++) {
            producer.send(new ProducerRecord<>(topic, i % 2, null, ("v" + i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.commitTransaction();

        try (PollingConsumer member = kaas.groupMember("group-" + listener,
                merge(sasl, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")), topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> member.records().size() == 6);
            member.commitSync();
        }
        assertThat(EmbeddedKaas.committedOffsets(admin, "group-" + listener)).hasSize(2);
        assertThat(admin.describeUserScramCredentials(List.of(user)).description(user).get().credentialInfos())
                .extracting(ScramCredentialInfo::mechanism).contains(ScramMechanism.fromMechanismName(mechanism));
    }

    @Test
    void eachListenerAdvertisesItsOwnPortInMetadata() {
        EmbeddedKaas kaas = KAAS.kaas();
        for (String listener : List.of("plain", "scram512")) {
            Map<String, Object> client = listener.equals("plain") ? Map.of()
                    : sasl(listener, "SCRAM-SHA-512", "alice", "alice-secret");
            KafkaProducer<byte[], byte[]> producer = kaas.producer(client);
            String topic = EmbeddedKaas.uniqueTopicName("advertised-" + listener);
            assertThat(producer.partitionsFor(topic)).isNotEmpty().allSatisfy(p ->
                    assertThat(p.leader().port()).as(listener).isEqualTo(kaas.broker().port(listener)));
        }
        assertThat(kaas.broker().port("plain")).isEqualTo(kaas.port())
                .isNotEqualTo(kaas.broker().port("scram512"));
    }

    @Test
    void aWrongPasswordAndAnUnknownUserFailAuthenticationWithTheSameMessage() {
        String wrong = authenticationFailure("alice", "guess");
        String unknown = authenticationFailure("mallory", "alice-secret");

        assertThat(wrong).isEqualTo(unknown).isEqualTo(GENERIC_FAILURE);
    }

    @Test
    void aCredentialAddedWhileTheBrokerRunsIsUsableWithoutARestart() throws Exception {
        assertThat(authenticationFailure("carol", "carol-secret")).isEqualTo(GENERIC_FAILURE);

        assertThat(addUser(KAAS.kaas(), "carol", "SCRAM-SHA-512", "carol-secret")).isZero();

        await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(ExecutionException.class).until(() -> {
            try (Admin admin = Admin.create(KAAS.kaas().adminConfig(sasl("scram512", "SCRAM-SHA-512", "carol",
                    "carol-secret")))) {
                return admin.describeCluster().clusterId().get() != null;
            }
        });
    }

    @Test
    void aRequestBeforeAuthenticationClosesTheConnectionAsApacheDoes() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        try (RawKafkaConnection raw = RawKafkaConnection.connect("127.0.0.1", kaas.broker().port("scram512"))) {
            raw.sendOnly(new MetadataRequest(new MetadataRequestData(), (short) 12));

            assertThat(raw.closedByPeer(Duration.ofSeconds(10))).isTrue();
        }
        Admin admin = kaas.admin(sasl("scram512", "SCRAM-SHA-512", "alice", "alice-secret"));
        assertThat(admin.describeCluster().nodes().get()).isNotEmpty();
    }

    @Test
    void alterAndDescribeUserScramCredentialsKeepApachesErrors() throws Exception {
        Admin admin = KAAS.kaas().admin();

        assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("weak",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 1024), "pw"))).all().get())
                .hasCauseInstanceOf(org.apache.kafka.common.errors.UnacceptableCredentialException.class)
                .hasMessageContaining("Too few iterations");
        assertThatThrownBy(() -> admin.describeUserScramCredentials(List.of("nobody")).description("nobody").get())
                .hasCauseInstanceOf(org.apache.kafka.common.errors.ResourceNotFoundException.class);
        Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get();
        assertThat(all).containsKeys("alice", "bob");
        assertThat(all.get("bob").credentialInfos()).containsExactly(
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192));
    }

    private static String authenticationFailure(String user, String password) {
        Admin admin = KAAS.kaas().admin(sasl("scram512", "SCRAM-SHA-512", user, password));
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> admin.describeCluster().nodes().get());
        assertThat(failure).hasCauseInstanceOf(SaslAuthenticationException.class);
        return failure.getCause().getMessage();
    }

    /** {@code ./kaas user add} as KaasMain runs it, on the broker's data directory. */
    static int addUser(EmbeddedKaas kaas, String name, String mechanism, String password) {
        return UserCommand.run(List.of("user", "add", name, "--mechanism", mechanism, "--password", password),
                Map.of("KAAS_DATA_DIR", kaas.dataDir().toString()), line -> { }, line -> { });
    }

    /** Client settings for SASL_PLAINTEXT on one listener of the broker. */
    static Map<String, Object> sasl(String listener, String mechanism, String user, String password) {
        return Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KAAS.kaas().broker().bootstrapServers(listener),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, mechanism,
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";");
    }

    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> merged = new java.util.HashMap<>(a);
        merged.putAll(b);
        return merged;
    }
}
