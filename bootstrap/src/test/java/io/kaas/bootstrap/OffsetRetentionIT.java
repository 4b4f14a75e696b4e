package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code offsets.retention.minutes} as in Apache 3.7: a group that has been empty for the
 * retention loses its offsets and disappears (its file with it), an offsets-only group's commits
 * expire from their commit time, and a group that is still consuming keeps its offsets.
 */
class OffsetRetentionIT {
    private static final long RETENTION_MS = 2_000;

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS)
            .withEnv(Map.of("KAAS_OFFSETS_RETENTION_MS", Long.toString(RETENTION_MS),
                    "KAAS_OFFSETS_RETENTION_CHECK_INTERVAL_MS", "200"));

    @Test
    void emptyAndOffsetsOnlyGroupsExpireWhileAConsumingGroupKeepsItsOffsets(EmbeddedKaas broker) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("retained");
        broker.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        KafkaProducer<byte[], byte[]> producer = broker.producer();
        for (int i = 0; i < 5; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) i})).get();
        }
        Map<TopicPartition, OffsetAndMetadata> five = Map.of(tp, new OffsetAndMetadata(5));

        PollingConsumer leaving = member(broker, "leaving", topic);
        leaving.commitSync(five);
        leaving.close();
        PollingConsumer staying = member(broker, "staying", topic);
        staying.commitSync(five);
        Map<String, Object> manual = new HashMap<>(broker.consumerConfig(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "manual")));
        try (KafkaConsumer<byte[], byte[]> offsetsOnly = new KafkaConsumer<>(manual)) {
            offsetsOnly.assign(List.of(tp));
            offsetsOnly.commitSync(five);
        }
        Admin admin = broker.admin();
        for (String group : List.of("leaving", "staying", "manual")) {
            assertThat(EmbeddedKaas.committedOffsets(admin, group)).as(group)
                    .containsEntry(tp, new OffsetAndMetadata(5));
        }

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(admin.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                    .doesNotContain("leaving", "manual");
            assertThat(EmbeddedKaas.committedOffsets(admin, "leaving")).isEmpty();
            assertThat(EmbeddedKaas.committedOffsets(admin, "manual")).isEmpty();
        });
        Path offsetsDir = broker.dataDir().resolve("__cluster").resolve("__consumer_offsets");
        try (var files = Files.list(offsetsDir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("only the consuming group has a file")
                    .containsExactly("staying.json");
        }
        assertThat(EmbeddedKaas.committedOffsets(admin, "staying")).as("a group consuming the topic keeps its offsets")
                .containsEntry(tp, new OffsetAndMetadata(5));
        assertThat(staying.failure()).isNull();
    }

    private static PollingConsumer member(EmbeddedKaas broker, String group, String topic) {
        PollingConsumer consumer = broker.groupMember(group, topic);
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> consumer.assignment().size() == 1);
        return consumer;
    }

}
