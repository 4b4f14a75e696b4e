package io.kaas.bootstrap.cluster;

import static io.kaas.dev.apiserver.testing.Kubectl.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.LocalCluster;
import io.kaas.dev.apiserver.testing.Kubectl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Kubernetes on one machine" walkthrough, driven by the real kubectl against the local cluster
 * ({@code dev/cluster.sh}: the development API server, the operator jar and broker processes sharing one volume):
 * {@code examples/kafkatopic.yaml} applied is a Ready topic whose id kubectl shows and clients see, records go through
 * it, Apache's kafka-topics creates a KafkaTopic kubectl lists Ready, {@code kubectl patch} grows a topic a producer
 * then writes to, {@code examples/kafkauser.yaml} is a Ready KafkaUser whose generated password (from its Secret, as
 * kubectl reads it) logs a producer and a consumer in over SCRAM-SHA-512 on the brokers' SASL listeners (a wrong one is
 * refused), and {@code kubectl delete} reclaims a
 * topic's directory on the volume. Two brokers rather than the README's three: the same paths, one JVM less.
 */
class KubectlClusterIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path binary;

    @TempDir
    Path dir;

    @BeforeAll
    static void findKubectl() {
        Optional<Path> found = Kubectl.find();
        assumeTrue(found.isPresent(), "no kubectl binary (-Dkaas.kubectl, $KUBECTL, the PATH, /usr/bin, "
                + "/usr/local/bin): this test drives the real kubectl and is skipped without one");
        binary = found.get();
    }

    @Test
    void theReadmeWalkthroughWithKubectlKafkaClientsAndKafkaTopics() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(2, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            Kubectl kubectl = new Kubectl(binary, cluster.kubeconfig(), Files.createDirectories(dir.resolve("home")));
            Path example = LocalCluster.repositoryRoot().resolve("examples/kafkatopic.yaml");

            assertThat(ok(kubectl, "apply", "-f", example.toString()).stdout()).contains("kafkatopic.kaas.rs/orders created");
            ok(kubectl, "wait", "--for=condition=Ready", "kt/orders", "--timeout=50s");
            List<List<String>> listed = table(ok(kubectl, "get", "kt").stdout());
            assertThat(listed.get(0)).containsExactly("NAME", "AGE", "PARTITIONS", "READY", "TOPIC ID");
            assertThat(listed).hasSize(2);
            List<String> orders = listed.get(1);
            assertThat(List.of(orders.get(0), orders.get(2), orders.get(3))).containsExactly("orders", "3", "True");
            await("every broker serves orders").atMost(DEADLINE).ignoreExceptions().untilAsserted(() ->
                    assertThat(describe(admin, "orders").partitions()).allSatisfy(p -> assertThat(p.leader()).isNotNull()));
            assertThat(orders.get(4)).as("the id kubectl shows is the one clients see")
                    .isEqualTo(uuid(describe(admin, "orders").topicId()));
            assertThat(describeConfig(admin, "orders", "retention.ms")).isEqualTo("604800000");

            List<String> sent = IntStream.range(0, 300).mapToObj(i -> "order-" + i).toList();
            List<RecordMetadata> acks = produce(cluster.bootstrapServers(), "orders", i -> i % 3, sent);
            assertThat(acks).extracting(RecordMetadata::partition).containsOnly(0, 1, 2);
            assertThat(readAll(cluster.bootstrapServers(), "orders", 3)).containsExactlyInAnyOrderElementsOf(sent);

            Process created = kafkaTopics("--bootstrap-server", cluster.bootstrapServers(), "--create", "--topic",
                    "payments", "--partitions", "2", "--config", "retention.ms=86400000");
            String createdOutput = new String(created.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(created.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(created.exitValue()).as(createdOutput).isZero();
            assertThat(createdOutput).contains("Created topic payments.");
            JsonNode payments = item(ok(kubectl, "get", "kt", "-o", "json").stdout(), "payments");
            assertThat(payments.at("/spec/partitions").asInt()).isEqualTo(2);
            assertThat(payments.at("/spec/config/retentionMs").asLong()).isEqualTo(86_400_000L);
            assertThat(readyStatus(payments)).as("kafka-topics answered once the operator made it Ready").isEqualTo("True");
            assertThat(payments.at("/status/topicId").asText()).isEqualTo(uuid(describe(admin, "payments").topicId()));

            ok(kubectl, "patch", "kt", "orders", "--type", "merge", "-p", "{\"spec\":{\"partitions\":6}}");
            await("a client's metadata shows six partitions").atMost(DEADLINE).ignoreExceptions().untilAsserted(() ->
                    assertThat(describe(admin, "orders").partitions()).hasSize(6)
                            .allSatisfy(p -> assertThat(p.leader()).isNotNull()));
            assertThat(produce(cluster.bootstrapServers(), "orders", i -> 5, List.of("on-a-new-partition")))
                    .extracting(RecordMetadata::partition).containsExactly(5);
            assertThat(Files.isDirectory(cluster.volume().resolve("orders/5"))).isTrue();

            Path user = LocalCluster.repositoryRoot().resolve("examples/kafkauser.yaml");
            assertThat(ok(kubectl, "apply", "-f", user.toString()).stdout()).contains("kafkauser.kaas.rs/orders-app created");
            assertThat(table(ok(kubectl, "get", "ku", "orders-app").stdout()).get(1))
                    .startsWith("orders-app").contains("scram-sha-512");
            ok(kubectl, "wait", "--for=condition=Ready", "ku/orders-app", "--timeout=50s");
            String password = new String(Base64.getDecoder().decode(ok(kubectl, "get", "secret",
                    "orders-app-kafka-credentials", "-o", "jsonpath={.data.password}").stdout().trim()), StandardCharsets.UTF_8);
            assertThat(password).hasSize(32);
            Map<String, Object> ordersApp = scram(cluster.saslBootstrapServers(), "orders-app", password);
            for (int id = 0; id < 2; id++) { // each broker re-reads credentials.json every second: retried afresh till then
                Map<String, Object> one = scram("127.0.0.1:" + cluster.saslPort(id), "orders-app", password);
                await("orders-app authenticates on broker " + id + ", whose Metadata advertises every broker's SASL port")
                        .atMost(DEADLINE).ignoreExceptions().untilAsserted(() -> {
                            try (Admin sasl = Admin.create(one)) {
                                assertThat(sasl.describeCluster().nodes().get(10, TimeUnit.SECONDS)).extracting(Node::port)
                                        .containsExactlyInAnyOrder(cluster.saslPort(0), cluster.saslPort(1));
                            }
                        });
            }
            List<String> authenticated = List.of("scram-1", "scram-2", "scram-3");
            assertThat(produce(ordersApp, "orders", i -> 4, authenticated)).extracting(RecordMetadata::partition)
                    .containsOnly(4);
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(
                    cluster.saslBootstrapServers(), ordersApp))) {
                assertThat(EmbeddedKaas.readAll(consumer, List.of(new TopicPartition("orders", 4)), DEADLINE)
                        .values().stream().flatMap(List::stream).map(r -> new String(r.value(), StandardCharsets.UTF_8)))
                        .containsExactlyElementsOf(authenticated);
            }
            try (Admin wrong = Admin.create(scram(cluster.saslBootstrapServers(), "orders-app", password + "x"))) {
                assertThatThrownBy(() -> wrong.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }

            assertThat(ok(kubectl, "delete", "kt", "orders").stdout()).contains("kafkatopic.kaas.rs \"orders\" deleted");
            await("the operator reclaims its directory").atMost(DEADLINE)
                    .until(() -> !Files.exists(cluster.volume().resolve("orders")));
            await("no broker serves it").atMost(DEADLINE).untilAsserted(() ->
                    assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).containsExactly("payments"));
            assertThat(table(ok(kubectl, "get", "kt").stdout())).extracting(row -> row.get(0))
                    .containsExactly("NAME", "payments");
        }
    }

    private static Kubectl.Result ok(Kubectl kubectl, String... args) {
        Kubectl.Result result = kubectl.run(args);
        assertThat(result.exitCode()).as("kubectl %s: %s", String.join(" ", args), result).isZero();
        return result;
    }

    /** Apache Kafka 3.7's kafka-topics, as a process on this test's classpath (which holds the tool). */
    private static Process kafkaTopics(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.apache.kafka.tools.TopicCommand"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static JsonNode item(String list, String name) throws IOException {
        return StreamSupport.stream(JSON.readTree(list).path("items").spliterator(), false)
                .filter(item -> item.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no KafkaTopic " + name + " in " + list));
    }

    private static String readyStatus(JsonNode kafkaTopic) {
        return StreamSupport.stream(kafkaTopic.at("/status/conditions").spliterator(), false)
                .filter(condition -> condition.path("type").asText().equals("Ready"))
                .map(condition -> condition.path("status").asText()).findFirst().orElse("none");
    }

    private static String uuid(Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits()).toString();
    }

    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
    }

    private static String describeConfig(Admin admin, String topic, String name) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource).get(name).value();
    }

    private static List<RecordMetadata> produce(String bootstrap, String topic, IntUnaryOperator partition,
                                                List<String> values) throws Exception {
        return produce(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap), topic, partition, values);
    }

    /**
     * Sends {@code values} (acks=all, idempotent) with {@code client}'s settings (at least its bootstrap list), the
     * i-th to {@code partition.apply(i)}; returns the acknowledgements.
     */
    private static List<RecordMetadata> produce(Map<String, Object> client, String topic, IntUnaryOperator partition,
                                                List<String> values) throws Exception {
        Map<String, Object> settings = new HashMap<>(client);
        settings.putAll(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true));
        List<Future<RecordMetadata>> pending = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                (String) client.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG), settings))) {
            for (int i = 0; i < values.size(); i++) {
                pending.add(producer.send(new ProducerRecord<>(topic, partition.applyAsInt(i), null,
                        values.get(i).getBytes(StandardCharsets.UTF_8))));
            }
            producer.flush();
            List<RecordMetadata> acks = new ArrayList<>();
            for (Future<RecordMetadata> ack : pending) {
                acks.add(ack.get(30, TimeUnit.SECONDS));
            }
            return acks;
        }
    }

    /** SASL_PLAINTEXT with SCRAM-SHA-512 as {@code user}, as the Secret's sasl.jaas.config would configure it. */
    private static Map<String, Object> scram(String bootstrap, String user, String password) {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";");
    }

    private static List<String> readAll(String bootstrap, String topic, int partitions) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(bootstrap, Map.of()))) {
            List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
            return EmbeddedKaas.readAll(consumer, all, DEADLINE).values().stream().flatMap(List::stream)
                    .map(ConsumerRecord::value).map(value -> new String(value, StandardCharsets.UTF_8)).toList();
        }
    }
}
