package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.adapter.wire.tls.TestPki;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real Java clients over TLS listeners from {@code KAAS_LISTENERS}, beside a plaintext one, on a broker
 * under {@code KAAS_AUTHORIZATION_TYPE=simple}: SSL (a consumer's Fetch answered from the segment files,
 * which the kernel cannot encrypt), SASL_SSL with SCRAM-SHA-512 and PLAIN, and mTLS, whose client
 * certificate is the principal the ACLs are checked against. ANONYMOUS is a super user, so a request that
 * reached the authorizer without its certificate's principal would be allowed everything.
 */
class TlsListenersIT {
    private static final Path TLS_DIR = tempDir();
    private static final TestPki.Ca CA = TestPki.Ca.create("kaas test CA");
    private static final String CA_PEM = TestPki.certificatesPem(CA.certificate());
    /** The mTLS client: {@code User:app} through the mapping rules below. */
    private static final TestPki.Identity APP = CA.client("CN=app,O=kaas tests");

    static {
        CA.server().writeTo(TLS_DIR.resolve("tls.crt"), TLS_DIR.resolve("tls.key"));
        CA.writeTo(TLS_DIR.resolve("ca.crt"));
        List.of("tls.crt", "tls.key", "ca.crt").forEach(file -> TLS_DIR.resolve(file).toFile().deleteOnExit());
    }

    private static final String FILES = "\"tlsConfiguration\":{\"certFile\":\"" + TLS_DIR.resolve("tls.crt")
            + "\",\"keyFile\":\"" + TLS_DIR.resolve("tls.key") + "\",\"caFile\":\"" + TLS_DIR.resolve("ca.crt") + "\"}";
    private static final String LISTENERS = "["
            + "{\"name\":\"plain\",\"port\":0,\"tls\":false},"
            + "{\"name\":\"ssl\",\"port\":0,\"tls\":true," + FILES + "},"
            + "{\"name\":\"scram\",\"port\":0,\"tls\":true,\"authentication\":{\"type\":\"scram-sha-512\"}," + FILES + "},"
            + "{\"name\":\"saslplain\",\"port\":0,\"tls\":true,\"authentication\":{\"type\":\"plain\"}," + FILES + "},"
            + "{\"name\":\"mtls\",\"port\":0,\"tls\":true,\"authentication\":{\"type\":\"mtls\"}," + FILES + "}]";

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS)
            .withEnv(Map.of("KAAS_LISTENERS", LISTENERS,
                    "KAAS_AUTHORIZATION_TYPE", "simple",
                    "KAAS_SUPER_USERS", "User:ANONYMOUS;User:alice",
                    "KAAS_SECURITY_RELOAD_INTERVAL_MS", "100",
                    "KAAS_SSL_PRINCIPAL_MAPPING_RULES", "RULE:^CN=([^,]+)(,.*)?$/$1/,DEFAULT"));

    @BeforeAll
    static void users() {
        assertThat(SaslScramIT.addUser(KAAS.kaas(), "alice", "SCRAM-SHA-512", "alice-secret")).isZero();
        // ./kaas user add wrote credentials.json from another process: the broker serves it from its next reload.
        Admin admin = KAAS.kaas().admin();
        await("the broker reloaded alice's credential").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .untilAsserted(() -> assertThat(admin.describeUserScramCredentials(List.of("alice")).all()
                        .get(10, TimeUnit.SECONDS)).containsKey("alice"));
        // and until a SCRAM login works: one run saw a login refused ("no SCRAM-SHA-512 credential for user alice")
        // 8 ms after the reload that describe had already seen, unexplained yet (see the issue 14 note)
        Map<String, Object> scram = merge(tls("scram"), Map.of(
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"alice\" password=\"alice-secret\";"));
        await("alice logs in with SCRAM-SHA-512").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> {
                    try (Admin login = Admin.create(scram)) {
                        return !login.describeCluster().nodes().get(10, TimeUnit.SECONDS).isEmpty();
                    }
                });
    }

    @Test
    void anSslListenerServesAdminProducerAndAConsumerReadingFromTheSegmentFiles() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("ssl");
        Admin admin = kaas.admin(tls("ssl"));
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        assertThat(admin.describeCluster().nodes().get()).extracting(Node::port).containsOnly(kaas.broker().port("ssl"));

        assertThat(roundTrip(tls("ssl"), topic, 50)).isEqualTo(values(50));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"scram, SCRAM-SHA-512, org.apache.kafka.common.security.scram.ScramLoginModule",
            "saslplain, PLAIN, org.apache.kafka.common.security.plain.PlainLoginModule"})
    void saslSslAuthenticatesAndServesAConsumerGroup(String listener, String mechanism, String loginModule)
            throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Map<String, Object> sasl = merge(tls(listener), Map.of(
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                SaslConfigs.SASL_MECHANISM, mechanism,
                SaslConfigs.SASL_JAAS_CONFIG, loginModule + " required username=\"alice\" password=\"alice-secret\";"));
        String topic = EmbeddedKaas.uniqueTopicName("sasl-ssl");
        kaas.admin(sasl).createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer(sasl);
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(topic, i % 2, null, ("v" + i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();

        try (PollingConsumer member = kaas.groupMember("group-" + listener, sasl, topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> member.records().size() == 10);
        }
        Map<String, Object> wrongPassword = new HashMap<>(sasl);
        wrongPassword.put(SaslConfigs.SASL_JAAS_CONFIG, loginModule + " required username=\"alice\" password=\"guess\";");
        assertThatThrownBy(() -> kaas.admin(wrongPassword).describeCluster().nodes().get())
                .hasCauseInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class);
    }

    @Test
    void anMtlsClientIsItsCertificatesPrincipalInAclChecks() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String allowed = EmbeddedKaas.uniqueTopicName("app-allowed");
        String other = EmbeddedKaas.uniqueTopicName("app-other");
        Admin admin = kaas.admin();
        admin.createTopics(List.of(new NewTopic(allowed, 1, (short) 1), new NewTopic(other, 1, (short) 1))).all().get();
        admin.createAcls(List.of(
                allow(new ResourcePattern(ResourceType.TOPIC, allowed, PatternType.LITERAL), AclOperation.WRITE),
                allow(new ResourcePattern(ResourceType.TOPIC, allowed, PatternType.LITERAL), AclOperation.READ),
                allow(new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                        AclOperation.IDEMPOTENT_WRITE))).all().get();
        Map<String, Object> app = merge(tls("mtls"), Map.of(
                SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG,
                TestPki.certificatesPem(APP.chain().toArray(X509Certificate[]::new)),
                SslConfigs.SSL_KEYSTORE_KEY_CONFIG, TestPki.pkcs8Pem(APP.key())));

        KafkaProducer<byte[], byte[]> producer = kaas.producer(app);
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() ->
                producer.send(new ProducerRecord<>(allowed, "v".getBytes(StandardCharsets.UTF_8))).get(10, TimeUnit.SECONDS)
                        != null);
        assertThatThrownBy(() -> kaas.producer(app).send(new ProducerRecord<>(other, "v".getBytes(StandardCharsets.UTF_8)))
                .get(15, TimeUnit.SECONDS)).hasCauseInstanceOf(TopicAuthorizationException.class);

        // without a certificate the handshake fails: the listener requires one
        assertThatThrownBy(() -> kaas.admin(tls("mtls")).describeCluster().nodes().get())
                .hasCauseInstanceOf(SslAuthenticationException.class);
    }

    @Test
    void thePlaintextListenerBesideTheTlsOnesServesAsBefore() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("plain");
        kaas.createTopic(topic, 1);

        assertThat(roundTrip(Map.of(), topic, 20)).isEqualTo(values(20));
        assertThat(kaas.admin().describeCluster().nodes().get()).extracting(Node::port).containsOnly(kaas.port());
        assertThat(kaas.port()).isNotEqualTo(kaas.broker().port("ssl"));
    }

    /** Produces {@code count} records and reads them back with an assigned consumer, both with {@code security}. */
    private static List<String> roundTrip(Map<String, Object> security, String topic, int count) throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        KafkaProducer<byte[], byte[]> producer = kaas.producer(security);
        for (String value : values(count)) {
            producer.send(new ProducerRecord<>(topic, 0, null, value.getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(security);
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
        return EmbeddedKaas.consume(consumer, count, EmbeddedKaas.DEFAULT_TIMEOUT).stream()
                .map(ConsumerRecord::value).map(v -> new String(v, StandardCharsets.UTF_8)).toList();
    }

    private static List<String> values(int count) {
        return IntStream.range(0, count).mapToObj(i -> "record-" + i).toList();
    }

    /** SSL to {@code listener}, trusting the test CA and checking the server certificate's name (127.0.0.1). */
    private static Map<String, Object> tls(String listener) {
        return Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KAAS.kaas().broker().bootstrapServers(listener),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, CA_PEM);
    }

    private static AclBinding allow(ResourcePattern pattern, AclOperation operation) {
        return new AclBinding(pattern, new AccessControlEntry("User:app", "*", operation, AclPermissionType.ALLOW));
    }

    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> merged = new HashMap<>(a);
        merged.putAll(b);
        return merged;
    }

    private static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("kaas-tls-it");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
