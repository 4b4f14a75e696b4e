package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Growing topics, log directories, DeleteRecords and refused topic creations through the real
 * AdminClient, with the data directory checked for what a refusal must not leave behind.
 */
class TopicAdminIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_MAX_PARTITIONS_PER_TOPIC", "16");

    @Test
    void createPartitionsGrowsATopicThatProducersAndConsumersThenUse() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("grown");
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        producer.send(new ProducerRecord<>(topic, 1, null, "before".getBytes())).get();

        admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(5))).all().get();

        assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()).hasSize(5);
        assertThat(Files.isDirectory(kaas.dataDir().resolve(topic).resolve("4"))).isTrue();
        // The producer learns the new count from its next metadata refresh and writes to the new partitions.
        Set<Integer> used = new HashSet<>();
        for (int p = 0; p < 5; p++) {
            RecordMetadata sent = producer.send(new ProducerRecord<>(topic, p, null, ("to-" + p).getBytes())).get();
            used.add(sent.partition());
        }
        assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition(topic, 3), new TopicPartition(topic, 4)));
        List<ConsumerRecord<byte[], byte[]>> records = EmbeddedKaas.consume(consumer, 2, Duration.ofSeconds(15));
        assertThat(records).extracting(r -> new String(r.value())).containsExactlyInAnyOrder("to-3", "to-4");
    }

    @Test
    void growingRefusalsGetApachesErrors() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("refused-growth");
        admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();

        assertThatThrownBy(() -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(3))).all().get())
                .cause().isInstanceOf(InvalidPartitionsException.class).hasMessage("Topic already has 3 partition(s).");
        assertThatThrownBy(() -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get())
                .cause().isInstanceOf(InvalidPartitionsException.class)
                .hasMessage("The topic " + topic + " currently has 3 partition(s); 2 would not be an increase.");
        assertThatThrownBy(() -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(17))).all().get())
                .cause().isInstanceOf(PolicyViolationException.class);

        assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()).hasSize(3);
        assertThat(Files.exists(kaas.dataDir().resolve(topic).resolve("3"))).as("nothing half-created").isFalse();
    }

    @Test
    void refusedCreationsLeaveNothingOnDisk() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String badValue = EmbeddedKaas.uniqueTopicName("bad-value");
        String unknownKey = EmbeddedKaas.uniqueTopicName("unknown-key");
        String tooWide = EmbeddedKaas.uniqueTopicName("too-wide");
        String fine = EmbeddedKaas.uniqueTopicName("fine");

        CreateTopicsResult result = admin.createTopics(List.of(
                new NewTopic(badValue, 1, (short) 1).configs(Map.of("retention.ms", "forever")),
                new NewTopic(unknownKey, 1, (short) 1).configs(Map.of("retention.mss", "1")),
                new NewTopic(tooWide, 17, (short) 1),
                new NewTopic(fine, 16, (short) 1)));

        assertThatThrownBy(() -> result.values().get(badValue).get()).cause()
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("Invalid value forever for configuration retention.ms: Not a number of type LONG");
        assertThatThrownBy(() -> result.values().get(unknownKey).get()).cause()
                .isInstanceOf(InvalidConfigurationException.class).hasMessage("Unknown topic config name: retention.mss");
        assertThatThrownBy(() -> result.values().get(tooWide).get()).cause().isInstanceOf(PolicyViolationException.class)
                .hasMessageContaining("KAAS_MAX_PARTITIONS_PER_TOPIC");
        result.values().get(fine).get();
        for (String refused : List.of(badValue, unknownKey, tooWide)) {
            assertThat(Files.exists(kaas.dataDir().resolve(refused))).as(refused).isFalse();
        }
        assertThat(admin.listTopics().names().get()).contains(fine).doesNotContain(badValue, unknownKey, tooWide);
    }

    @Test
    void validateOnlyChecksAnExistingTopicAndCreatesNothing() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String existing = EmbeddedKaas.uniqueTopicName("existing");
        String dryRun = EmbeddedKaas.uniqueTopicName("dry-run");
        admin.createTopics(List.of(new NewTopic(existing, 1, (short) 1))).all().get();
        CreateTopicsOptions validateOnly = new CreateTopicsOptions().validateOnly(true);

        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(existing, 1, (short) 1)), validateOnly).all().get())
                .cause().isInstanceOf(TopicExistsException.class);
        CreateTopicsResult ok = admin.createTopics(List.of(new NewTopic(dryRun, 4, (short) 1)
                .configs(Map.of("cleanup.policy", "compact"))), validateOnly);
        ok.all().get();

        assertThat(ok.numPartitions(dryRun).get()).isEqualTo(4);
        assertThat(ok.config(dryRun).get().get("cleanup.policy").value()).isEqualTo("compact");
        assertThat(admin.listTopics().names().get()).doesNotContain(dryRun);
        assertThat(Files.exists(kaas.dataDir().resolve(dryRun))).isFalse();
    }

    @Test
    void describeLogDirsReportsTheDataDirectoryAndPartitionSizes() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("sized");
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(topic, 1, null, new byte[1000])).get();
        }

        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(0)).allDescriptions().get().get(0);

        String path = kaas.dataDir().toAbsolutePath().toString();
        assertThat(dirs).containsOnlyKeys(path);
        LogDirDescription dir = dirs.get(path);
        assertThat(dir.error()).isNull();
        assertThat(dir.totalBytes().orElseThrow()).isPositive();
        assertThat(dir.usableBytes().orElseThrow()).isPositive().isLessThanOrEqualTo(dir.totalBytes().orElseThrow());
        ReplicaInfo empty = dir.replicaInfos().get(new TopicPartition(topic, 0));
        ReplicaInfo full = dir.replicaInfos().get(new TopicPartition(topic, 1));
        assertThat(empty.size()).isZero();
        long onDisk;
        try (Stream<Path> files = Files.list(kaas.dataDir().resolve(topic).resolve("1"))) {
            onDisk = files.filter(p -> p.toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
        }
        assertThat(full.size()).isGreaterThan(10_000).isEqualTo(onDisk);
        assertThat(full.offsetLag()).isZero();
        assertThat(full.isFuture()).isFalse();
    }

    @Test
    void deleteRecordsThroughTheAdminClientMovesTheLogStart() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("purged");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, ("r" + i).getBytes())).get();
        }
        TopicPartition tp = new TopicPartition(topic, 0);

        long low = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(7))).lowWatermarks().get(tp).get().lowWatermark();

        assertThat(low).isEqualTo(7);
        assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get().offset()).isEqualTo(7);
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(tp));
        assertThat(EmbeddedKaas.consume(consumer, 3, Duration.ofSeconds(15))).extracting(ConsumerRecord::offset)
                .containsExactly(7L, 8L, 9L);
    }
}
