package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Committed offsets live in {@code __cluster/__consumer_offsets/<group>.json}: across restarts, and not beyond their topic. */
class GroupOffsetsDurabilityIT {
    @TempDir
    Path data;

    private static void commit(GroupBrokerFixture broker, String group, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(broker.consumerProps(group))) {
            consumer.assign(offsets.keySet());
            consumer.commitSync(offsets);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> offsets(GroupBrokerFixture broker, String group) throws Exception {
        return broker.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    }

    @Test
    void committedOffsetsSurviveABrokerRestart() throws Exception {
        try (GroupBrokerFixture broker = new GroupBrokerFixture(data)) {
            broker.createTopic("orders", 3);
            TopicPartition tp = new TopicPartition("orders", 2);
            try (PollingConsumer member = broker.consumer("billing", "orders")) {
                await().atMost(GroupBrokerFixture.timeout()).until(() -> member.assignment().size() == 3);
                member.call(c -> {
                    c.commitSync(Map.of(tp, new OffsetAndMetadata(17, "before restart")));
                    return null;
                });
            }
            assertThat(data.resolve("__cluster/__consumer_offsets/billing.json")).exists();

            broker.restart();

            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(broker.consumerProps("billing"))) {
                assertThat(consumer.committed(Set.of(tp)).get(tp)).isEqualTo(new OffsetAndMetadata(17, "before restart"));
            }
            assertThat(broker.admin().listConsumerGroups().all().get()).filteredOn(g -> g.groupId().equals("billing"))
                    .singleElement().satisfies(g -> assertThat(g.isSimpleConsumerGroup()).as("it had consumers").isFalse());
        }
    }

    @Test
    void deletingATopicPurgesItsCommittedOffsets() throws Exception {
        try (GroupBrokerFixture broker = new GroupBrokerFixture(data)) {
            broker.createTopic("doomed", 2);
            broker.createTopic("kept", 1);
            TopicPartition doomed = new TopicPartition("doomed", 1);
            TopicPartition kept = new TopicPartition("kept", 0);
            commit(broker, "loaded", Map.of(doomed, new OffsetAndMetadata(3), kept, new OffsetAndMetadata(4)));
            commit(broker, "only-doomed", Map.of(doomed, new OffsetAndMetadata(5)));

            broker.admin().deleteTopics(List.of("doomed")).all().get();

            await().atMost(GroupBrokerFixture.timeout()).untilAsserted(() -> {
                assertThat(offsets(broker, "loaded")).containsOnlyKeys(kept);
                assertThat(offsets(broker, "only-doomed")).isEmpty();
            });
            await().atMost(GroupBrokerFixture.timeout()).until(() ->
                    !Files.exists(data.resolve("__cluster/__consumer_offsets/only-doomed.json")));

            broker.createTopic("doomed", 2);
            broker.restart();
            assertThat(offsets(broker, "loaded")).containsOnlyKeys(kept);
            assertThat(broker.admin().listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                    .contains("loaded").doesNotContain("only-doomed");
        }
    }

    @Test
    void memoryModeKeepsOffsetsWhileTheBrokerRuns() throws Exception {
        try (GroupBrokerFixture broker = new GroupBrokerFixture(data, Map.of("KAAS_STORAGE", "memory"))) {
            broker.createTopic("m", 1);
            TopicPartition tp = new TopicPartition("m", 0);
            commit(broker, "in-memory", Map.of(tp, new OffsetAndMetadata(2)));
            assertThat(offsets(broker, "in-memory")).containsEntry(tp, new OffsetAndMetadata(2));
            assertThat(data.resolve("__cluster/__consumer_offsets")).doesNotExist();
        }
    }
}
