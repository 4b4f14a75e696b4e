package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.telemetry.PrometheusText;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.NumberedRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.ReplicaNotAvailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several log dirs ({@code KAAS_LOG_DIRS}) through the real AdminClient: DescribeLogDirs lists every dir with the
 * partitions it holds, AlterReplicaLogDirs moves a partition between them while a producer and a consumer run, and
 * the consumer reads every record exactly once; a restart finds the partition where it moved.
 */
class LogDirsIT {
    @TempDir
    Path volumes;
    private Path data;
    private Path bulk;
    private EmbeddedKaas kaas;

    @BeforeEach
    void start() throws Exception {
        data = Files.createDirectories(volumes.resolve("data"));
        bulk = volumes.resolve("bulk"); // the broker creates it
        kaas = new EmbeddedKaas(data, Map.of("KAAS_LOG_DIRS", "bulk=" + bulk,
                "KAAS_SEGMENT_BYTES", "16384")); // several sealed segments to copy while the partition is served
        kaas.start();
    }

    @AfterEach
    void stop() {
        kaas.close();
    }

    @Test
    void describeLogDirsListsEveryDirWithThePartitionsPlacedThere() throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("placed");
        kaas.createTopic(topic, 4);
        kaas.produce(topic, 40, "v");

        Map<String, LogDirDescription> dirs = kaas.admin().describeLogDirs(List.of(0)).allDescriptions().get().get(0);

        assertThat(dirs).containsOnlyKeys(path(data), path(bulk));
        assertThat(dirs.get(path(data)).replicaInfos().keySet()).extracting(TopicPartition::partition)
                .containsExactlyInAnyOrder(0, 2);
        assertThat(dirs.get(path(bulk)).replicaInfos().keySet()).extracting(TopicPartition::partition)
                .containsExactlyInAnyOrder(1, 3);
        for (LogDirDescription dir : dirs.values()) {
            assertThat(dir.error()).isNull();
            assertThat(dir.totalBytes().orElseThrow()).isPositive();
            assertThat(dir.replicaInfos().values()).extracting(ReplicaInfo::size).allMatch(size -> size > 0);
        }
        assertThat(segmentBytes(bulk.resolve(topic).resolve("1"))).isPositive();
    }

    @Test
    void eachLogDirsSizeAndFreeSpaceAreGaugesLabelledByItsName() throws Exception {
        Map<String, LogDirDescription> dirs = kaas.admin().describeLogDirs(List.of(0)).allDescriptions().get().get(0);

        for (Map.Entry<String, Path> dir : Map.of("default", data, "bulk", bulk).entrySet()) {
            Map<String, String> labels = Map.of("log_dir", dir.getKey(), "path", path(dir.getValue()));
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).untilAsserted(() -> {
                PrometheusText metrics = PrometheusText.scrape(kaas.broker().healthPort());
                assertThat(metrics.value("kaas_log_dir_total_bytes", labels)).as("the volume's size, as DescribeLogDirs"
                        + " says").hasValue((double) dirs.get(path(dir.getValue())).totalBytes().orElseThrow());
                assertThat(metrics.value("kaas_log_dir_usable_bytes", labels).orElseThrow()).isPositive()
                        .isLessThanOrEqualTo(dirs.get(path(dir.getValue())).totalBytes().orElseThrow());
            });
        }
    }

    @Test
    void aPartitionMovesWhileAProducerAndAConsumerRunWithNothingLostOrRepeated() throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("moved");
        kaas.createTopic(topic, 1); // partition 0: placed in the data directory
        TopicPartition tp = new TopicPartition(topic, 0);
        Admin admin = kaas.admin();
        assertThat(replicaDir(admin, tp)).isEqualTo(path(data));

        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger produced = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread producing = new Thread(() -> produce(topic, produced, stop, failure), "log-dirs-it-producer");
        List<String> consumed = new ArrayList<>();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        producing.start();
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> NumberedRecords.poll(consumer, consumed)
                && produced.get() >= 1_000);

        admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica(topic, 0, 0), path(bulk))).all().get();
        await().atMost(Duration.ofSeconds(60)).until(() -> NumberedRecords.poll(consumer, consumed)
                && path(bulk).equals(replicaDir(admin, tp)) && !hasFuture(admin, tp));
        int atSwitch = produced.get();
        await().atMost(Duration.ofSeconds(60)).until(() -> NumberedRecords.poll(consumer, consumed)
                && produced.get() >= atSwitch + 500);
        stop.set(true);
        producing.join(60_000);
        assertThat(failure.get()).as("the producer's failure").isNull();
        int total = produced.get();
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> NumberedRecords.poll(consumer, consumed)
                && consumed.size() >= total);

        List<String> expected = NumberedRecords.expected(total);
        assertThat(consumed).containsExactlyElementsOf(expected);
        assertThat(segmentBytes(bulk.resolve(topic).resolve("0"))).isPositive();

        kaas.restart();
        assertThat(replicaDir(kaas.admin(), tp)).isEqualTo(path(bulk));
        KafkaConsumer<byte[], byte[]> again = kaas.consumer();
        again.assign(List.of(tp));
        again.seekToBeginning(List.of(tp));
        List<String> reread = new ArrayList<>();
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> NumberedRecords.poll(again, reread)
                && reread.size() >= total);
        assertThat(reread).containsExactlyElementsOf(expected);
    }

    @Test
    void alterReplicaLogDirsAnswersAsApacheDoes() throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("refused");
        kaas.createTopic(topic, 1);
        Admin admin = kaas.admin();

        assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica(topic, 0, 0),
                volumes.resolve("nowhere").toString())).all().get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(LogDirNotFoundException.class);
        assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica(topic, 7, 0),
                path(bulk))).all().get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ReplicaNotAvailableException.class);
        admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica(topic, 0, 0), path(data))).all().get();
        assertThat(replicaDir(admin, new TopicPartition(topic, 0))).as("already there: nothing moves")
                .isEqualTo(path(data));
    }

    private void produce(String topic, AtomicInteger produced, AtomicBoolean stop, AtomicReference<Throwable> failure) {
        NumberedRecords.produceUntilStopped(kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 2, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)), topic, 0,
                produced, stop, failure);
    }

    private static String replicaDir(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeReplicaLogDirs(List.of(new TopicPartitionReplica(tp.topic(), tp.partition(), 0)))
                .all().get().values().iterator().next().getCurrentReplicaLogDir();
    }

    private static boolean hasFuture(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeReplicaLogDirs(List.of(new TopicPartitionReplica(tp.topic(), tp.partition(), 0)))
                .all().get().values().iterator().next().getFutureReplicaLogDir() != null;
    }

    private static String path(Path dir) {
        return dir.toAbsolutePath().normalize().toString();
    }

    private static long segmentBytes(Path partitionDir) throws Exception {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(p -> p.toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
