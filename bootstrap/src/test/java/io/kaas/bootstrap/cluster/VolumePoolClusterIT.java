package io.kaas.bootstrap.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.TopicStorage;
import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.LocalCluster;
import io.kaas.bootstrap.testing.NumberedRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The volume pool in cluster mode, end to end on the local cluster ({@code dev/cluster.sh}: the development API server,
 * the operator jar and two broker processes, all given the pool as the chart gives it, {@code KAAS_VOLUME_POOL}): a
 * KafkaTopic pinned to a member is produced to and consumed by real kafka-clients, AdminClient's describeLogDirs and
 * Apache's kafka-log-dirs list its partitions under that member on whichever broker leads them, and its segments are
 * files under that member's directory, not the data volume's. A topic created over the Admin API (no binding) lands on
 * the default set: the data volume and the default-eligible member, never the reserved one. AlterReplicaLogDirs moves
 * a partition to another member through its leader while an idempotent producer and a consumer run: every record
 * reads back once, in order, and the partition is listed under, and its files are in, the new member only.
 */
class VolumePoolClusterIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aTopicPinnedToAMemberIsServedFromItAndListedUnderIt() throws Exception {
        ApacheTool tools = ApacheTool.resolve();
        Path premium = Files.createDirectories(dir.resolve("vols/premium"));
        Path bulk = Files.createDirectories(dir.resolve("vols/bulk"));
        String pool = JSON.writeValueAsString(List.of(
                Map.of("name", "premium", "path", premium.toString(), "labels", Map.of("class", "premium")),
                Map.of("name", "bulk", "path", bulk.toString(), "defaultEligible", true)));
        try (LocalCluster cluster = LocalCluster.start(2, dir.resolve("cluster"), Map.of("KAAS_VOLUME_POOL", pool));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            kubernetes.resource(pinned("orders", 4, "premium")).create();
            admin.createTopics(List.of(new NewTopic("events", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            await("orders is served").atMost(DEADLINE).ignoreExceptions().untilAsserted(() -> assertThat(
                    admin.describeTopics(List.of("orders")).allTopicNames().get(10, TimeUnit.SECONDS).get("orders")
                            .partitions()).allSatisfy(p -> assertThat(p.leader()).isNotNull()));

            LocalClusterIT.produceAndReadBack(cluster.bootstrapServers(), "orders", 400);
            LocalClusterIT.produceAndReadBack(cluster.bootstrapServers(), "events", 100);

            Map<String, String> dirs = Map.of(cluster.volume().toString(), "default", premium.toString(), "premium",
                    bulk.toString(), "bulk");
            await("every broker reports each partition it leads under its member").atMost(DEADLINE)
                    .ignoreExceptions().untilAsserted(() -> assertThat(partitionsByMember(admin, dirs)).isEqualTo(Map.of(
                            "default", Set.of("events-0"),
                            "bulk", Set.of("events-1"),
                            "premium", Set.of("orders-0", "orders-1", "orders-2", "orders-3"))));
            assertThat(kubernetes.resources(KafkaTopic.class).withName("orders").get().getStatus()
                    .getVolumeAssignments()).isEqualTo(Map.of("0", "premium", "1", "premium", "2", "premium",
                            "3", "premium"));
            for (int p = 0; p < 4; p++) {
                assertThat(logBytes(premium.resolve("orders").resolve(Integer.toString(p))))
                        .as("orders-" + p + "'s records are on premium").isPositive();
                assertThat(logBytes(cluster.volume().resolve("orders").resolve(Integer.toString(p))))
                        .as("nothing of orders-" + p + " on the data volume").isZero();
            }
            assertThat(logBytes(bulk.resolve("events/1"))).isPositive();

            JsonNode described = logDirsTool(tools, cluster);
            Map<String, Set<String>> byDir = new TreeMap<>();
            described.get("brokers").forEach(broker -> broker.get("logDirs").forEach(logDir -> {
                Set<String> partitions = byDir.computeIfAbsent(dirs.get(logDir.get("logDir").asText()),
                        name -> new HashSet<>());
                logDir.get("partitions").forEach(partition -> partitions.add(partition.get("partition").asText()));
            }));
            assertThat(byDir).as("kafka-log-dirs --describe --topic-list orders").isEqualTo(Map.of(
                    "default", Set.of(), "bulk", Set.of(), "premium", Set.of("orders-0", "orders-1", "orders-2",
                            "orders-3")));
        }
    }

    @Test
    void aPartitionMovesToAnotherMemberWhileProducedToAndConsumed() throws Exception {
        Path premium = Files.createDirectories(dir.resolve("vols/premium"));
        Path bulk = Files.createDirectories(dir.resolve("vols/bulk"));
        String pool = JSON.writeValueAsString(List.of(Map.of("name", "premium", "path", premium.toString()),
                Map.of("name", "bulk", "path", bulk.toString())));
        try (LocalCluster cluster = LocalCluster.start(2, dir.resolve("cluster"), Map.of("KAAS_VOLUME_POOL", pool));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            kubernetes.resource(pinned("orders", 2, "premium")).create();
            TopicPartition moved = new TopicPartition("orders", 1);
            int leader = await("orders-1 is led").atMost(DEADLINE).ignoreExceptions().until(() -> admin
                    .describeTopics(List.of("orders")).allTopicNames().get(10, TimeUnit.SECONDS).get("orders")
                    .partitions().get(1).leader().id(), id -> id >= 0);
            TopicPartitionReplica replica = new TopicPartitionReplica("orders", 1, leader);

            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicInteger produced = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG,
                    "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 2),
                    new ByteArraySerializer(), new ByteArraySerializer());
            Thread producing = new Thread(() -> NumberedRecords.produceUntilStopped(producer, "orders", 1, produced,
                    stop, failure), "volume-pool-it-producer");
            List<String> consumed = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.assign(List.of(moved));
                consumer.seekToBeginning(List.of(moved));
                producing.start();
                await("records flow").atMost(DEADLINE).until(() -> NumberedRecords.poll(consumer, consumed)
                        && produced.get() >= 1_000);

                admin.alterReplicaLogDirs(Map.of(replica, bulk.toString())).all().get(30, TimeUnit.SECONDS);
                await("the leader serves orders-1 from bulk").atMost(DEADLINE).ignoreExceptions().until(() -> {
                    DescribeReplicaLogDirsResult.ReplicaLogDirInfo info = admin.describeReplicaLogDirs(
                            List.of(replica)).all().get(10, TimeUnit.SECONDS).get(replica);
                    return NumberedRecords.poll(consumer, consumed) && bulk.toString()
                            .equals(info.getCurrentReplicaLogDir()) && info.getFutureReplicaLogDir() == null;
                });
                int atSwitch = produced.get();
                await("records flow after the move").atMost(DEADLINE).until(() -> NumberedRecords.poll(consumer,
                        consumed) && produced.get() >= atSwitch + 500);
                stop.set(true);
                producing.join(60_000);
                assertThat(failure.get()).as("the producer's failure").isNull();
                int total = produced.get();
                await("everything acknowledged is read").atMost(DEADLINE).until(() -> NumberedRecords.poll(consumer,
                        consumed) && consumed.size() >= total);
                assertThat(consumed).as("every record once, in order").containsExactlyElementsOf(
                        NumberedRecords.expected(total));
            }

            Map<String, String> dirs = Map.of(cluster.volume().toString(), "default", premium.toString(), "premium",
                    bulk.toString(), "bulk");
            await("describeLogDirs lists orders-1 under bulk").atMost(DEADLINE).ignoreExceptions()
                    .untilAsserted(() -> assertThat(partitionsByMember(admin, dirs)).isEqualTo(Map.of(
                            "premium", Set.of("orders-0"), "bulk", Set.of("orders-1"))));
            assertThat(logBytes(bulk.resolve("orders/1"))).as("orders-1's records are on bulk").isPositive();
            await("the source's files go after file.delete.delay.ms").atMost(DEADLINE)
                    .until(() -> logBytes(premium.resolve("orders/1")) == 0);
            kubernetes.resources(KafkaTopic.class).withName("orders").edit(topic -> {
                topic.getSpec().setPartitions(3); // a reconcile, which places only the new partition
                return topic;
            });
            await("status.volumeAssignments follows the record in force").atMost(DEADLINE).untilAsserted(() ->
                    assertThat(kubernetes.resources(KafkaTopic.class).withName("orders").get().getStatus()
                            .getVolumeAssignments()).isEqualTo(Map.of("0", "premium", "1", "bulk", "2", "premium")));
        }
    }

    private static KafkaTopic pinned(String name, int partitions, String volume) {
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
        resource.setSpec(new KafkaTopicSpec());
        resource.getSpec().setPartitions(partitions);
        TopicStorage storage = new TopicStorage();
        storage.setVolumes(List.of(volume));
        resource.getSpec().setStorage(storage);
        return resource;
    }

    /**
     * DescribeLogDirs of both brokers: the partitions each member holds, by member name. Every broker must list every
     * member (a member unknown to {@code dirs} fails the lookup).
     */
    private static Map<String, Set<String>> partitionsByMember(Admin admin, Map<String, String> dirs) throws Exception {
        Map<String, Set<String>> byMember = new HashMap<>();
        Map<Integer, Map<String, LogDirDescription>> described = admin.describeLogDirs(List.of(0, 1))
                .allDescriptions().get(10, TimeUnit.SECONDS);
        described.forEach((broker, logDirs) -> {
            assertThat(logDirs.keySet()).as("broker " + broker + "'s log dirs").containsExactlyInAnyOrderElementsOf(
                    dirs.keySet());
            logDirs.forEach((path, description) -> {
                Set<String> partitions = byMember.computeIfAbsent(dirs.get(path), name -> new HashSet<>());
                description.replicaInfos().keySet().stream().map(TopicPartition::toString).forEach(partitions::add);
            });
        });
        byMember.values().forEach(partitions -> partitions.removeIf(p -> !p.startsWith("orders-")
                && !p.startsWith("events-")));
        byMember.values().removeIf(Set::isEmpty);
        return byMember;
    }

    /** Apache's kafka-log-dirs --describe for the topic orders, as JSON. */
    private static JsonNode logDirsTool(ApacheTool tools, LocalCluster cluster) throws Exception {
        String output = tools.run("org.apache.kafka.tools.LogDirsCommand", List.of("--bootstrap-server",
                cluster.bootstrapServers(), "--describe", "--topic-list", "orders"));
        return JSON.readTree(output.lines().filter(line -> line.startsWith("{")).findFirst()
                .orElseThrow(() -> new AssertionError("no JSON from kafka-log-dirs: " + output)));
    }

    /** The bytes of the segment files in a partition directory. */
    private static long logBytes(Path partitionDir) throws IOException {
        if (!Files.isDirectory(partitionDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }
}
