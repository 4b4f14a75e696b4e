package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.dispatch.ConnectionLimits;
import io.kaas.adapter.wire.dispatch.KafkaApiDispatcher;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SslPrincipalMapping;
import io.netty.channel.ChannelHandler;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache's Java clients over {@code security.protocol=SSL} with client certificates (PEM, as
 * {@code KafkaUser} Secrets hold them) against the real Kafka pipeline (frame decoder, dispatcher, an
 * in-memory broker) behind the TLS handlers, on the preferred provider (OpenSSL here). Kafka's client
 * verifies the server's name ({@code ssl.endpoint.identification.algorithm=https}) against the
 * certificate's 127.0.0.1 SAN.
 */
class KafkaClientsOverTlsIT {
    private static final TestPki.Ca SERVER_CA = TestPki.Ca.create("kafka-server-ca");
    private static final TestPki.Ca CLIENT_CA = TestPki.Ca.create("kafka-client-ca");
    private static final Duration CLOSE = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private final AtomicInteger port = new AtomicInteger();
    private final ExecutorService blocking = Executors.newSingleThreadExecutor();
    private ReloadingSslContext tls;
    private TlsTestServer server;

    @BeforeEach
    void start() throws Exception {
        SERVER_CA.server().writeTo(dir.resolve("tls.crt"), dir.resolve("tls.key"));
        TlsSettings settings = TlsSettings.server(dir.resolve("tls.crt"), dir.resolve("tls.key"))
                .withClientAuth(TlsClientAuth.REQUIRED, CLIENT_CA.writeTo(dir.resolve("ca.crt")));
        tls = ReloadingSslContext.load("mtls", settings);
        InMemoryBroker broker = new InMemoryBroker(true, "127.0.0.1", port::get);
        server = TlsTestServer.start(tls, SslPrincipalMapping.parse("RULE:^CN=([^,]+).*$/$1/,DEFAULT"),
                () -> List.<ChannelHandler>of(new KafkaFrameDecoder(1 << 20),
                        new KafkaApiDispatcher(broker.registry(), ConnectionLimits.DEFAULT, blocking)));
        port.set(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
        tls.close();
        blocking.shutdownNow();
    }

    @Test
    void adminProducerAndConsumerWorkOverMutualTls() throws Exception {
        Map<String, Object> ssl = clientSsl(CLIENT_CA.client("CN=orders-app,O=Example Corp"));
        Admin admin = Admin.create(with(ssl, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
        try {
            Collection<Node> nodes = admin.describeCluster().nodes().get();
            assertThat(nodes).extracting(Node::host, Node::port).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("127.0.0.1", server.port()));
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
        } finally {
            admin.close(CLOSE);
        }

        Map<String, Object> producerConfig = with(ssl, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig);
        try {
            RecordMetadata written = producer.send(new ProducerRecord<>("orders", "k", "over tls")).get();
            assertThat(written.offset()).isZero();
        } finally {
            producer.close(CLOSE);
        }

        Map<String, Object> consumerConfig = with(ssl, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig);
        try {
            TopicPartition orders = new TopicPartition("orders", 0);
            consumer.assign(List.of(orders));
            consumer.seekToBeginning(List.of(orders));
            List<ConsumerRecord<String, String>> records = new java.util.ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return !records.isEmpty();
            });
            assertThat(records).extracting(ConsumerRecord::value).containsExactly("over tls");
        } finally {
            consumer.close(CLOSE);
        }

        assertThat(server.accepted()).isNotEmpty().allSatisfy(channel ->
                assertThat(TlsPrincipalHandler.principal(channel)).isEqualTo(KafkaPrincipal.user("orders-app")));
    }

    /**
     * The Java client offers only a certificate issued by a CA the server's request names, so it sends none
     * and the server ends the handshake (certificate_required); TlsListenerIT has a client that presents
     * the foreign certificate anyway.
     */
    @Test
    void aClientWithACertificateFromAnotherCaFailsAuthentication() {
        TestPki.Ca otherCa = TestPki.Ca.create("kafka-other-ca");
        Map<String, Object> ssl = clientSsl(otherCa.client("CN=orders-app,O=Example Corp"));
        Admin admin = Admin.create(with(ssl, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
        try {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SslAuthenticationException.class);
        } finally {
            admin.close(CLOSE);
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.accepted()).isNotEmpty()
                .allSatisfy(channel -> assertThat(channel.isActive()).isFalse()));
    }

    private Map<String, Object> clientSsl(TestPki.Identity identity) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + server.port());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        config.put(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, TestPki.certificatesPem(SERVER_CA.certificate()));
        config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
        config.put(SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG,
                TestPki.certificatesPem(identity.chain().toArray(X509Certificate[]::new)));
        config.put(SslConfigs.SSL_KEYSTORE_KEY_CONFIG, TestPki.pkcs8Pem(identity.key()));
        config.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return config;
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> config = new HashMap<>(base);
        config.put(key, value);
        return config;
    }
}
