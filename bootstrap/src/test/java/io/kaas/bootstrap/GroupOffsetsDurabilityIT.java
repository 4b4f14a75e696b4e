package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Committed offsets live in {@code __cluster/__consumer_offsets/<group>.json}: across restarts, and not beyond their topic. */
class GroupOffsetsDurabilityIT {
    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create() // one broker per test: restarts are destructive
            .withEnv(EmbeddedKaas.FAST_GROUPS);

    private static void commit(EmbeddedKaas kaas, String group, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.groupConsumerConfig(group, Map.of()))) {
            consumer.assign(offsets.keySet());
            consumer.commitSync(offsets);
        }
    }

    @Test
    void aStableGroupCarriesOnAcrossABrokerRestartWithoutARebalance(EmbeddedKaas kaas) throws Exception {
        kaas.createTopic("events", 4);
        List<PollingConsumer> members = List.of(kaas.groupMember("steady", "events"), kaas.groupMember("steady", "events"));
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> members.stream().allMatch(m -> m.assignment().size() == 2));
        int generation = members.get(0).generation();
        List<Set<TopicPartition>> assignments = members.stream().map(PollingConsumer::assignment).toList();

        kaas.restart();

        var producer = kaas.producer();
        for (int i = 0; i < 40; i++) {
            producer.send(new ProducerRecord<>("events", i % 4, null, new byte[] {(byte) i})).get();
        }
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT)
                .until(() -> members.stream().mapToInt(m -> m.records().size()).sum() == 40);
        for (PollingConsumer m : members) {
            m.commitSync();
        }
        assertThat(members).as("same generation, same partitions: the restarted coordinator resumed the group")
                .allSatisfy(m -> {
                    assertThat(m.failure()).isNull();
                    assertThat(m.generation()).isEqualTo(generation);
                })
                .extracting(PollingConsumer::assignment).containsExactlyElementsOf(assignments);
        assertThat(EmbeddedKaas.committedOffsets(kaas.admin(), "steady").values().stream()
                .mapToLong(OffsetAndMetadata::offset).sum())
                .isEqualTo(40);
    }

    @Test
    void committedOffsetsSurviveABrokerRestart(EmbeddedKaas kaas) throws Exception {
        kaas.createTopic("orders", 3);
        TopicPartition tp = new TopicPartition("orders", 2);
        try (PollingConsumer member = kaas.groupMember("billing", "orders")) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> member.assignment().size() == 3);
            member.commitSync(Map.of(tp, new OffsetAndMetadata(17, "before restart")));
        }
        assertThat(kaas.dataDir().resolve("__cluster/__consumer_offsets/billing.json")).exists();
        kaas.closeClients();

        kaas.restart();

        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.groupConsumerConfig("billing", Map.of()))) {
            assertThat(consumer.committed(Set.of(tp)).get(tp)).isEqualTo(new OffsetAndMetadata(17, "before restart"));
        }
        assertThat(kaas.admin().listConsumerGroups().all().get()).filteredOn(g -> g.groupId().equals("billing"))
                .singleElement().satisfies(g -> assertThat(g.isSimpleConsumerGroup()).as("it had consumers").isFalse());
    }

    @Test
    void deletingATopicPurgesItsCommittedOffsets(EmbeddedKaas kaas) throws Exception {
        Admin admin = kaas.admin();
        kaas.createTopic("doomed", 2);
        kaas.createTopic("kept", 1);
        TopicPartition doomed = new TopicPartition("doomed", 1);
        TopicPartition kept = new TopicPartition("kept", 0);
        commit(kaas, "loaded", Map.of(doomed, new OffsetAndMetadata(3), kept, new OffsetAndMetadata(4)));
        commit(kaas, "only-doomed", Map.of(doomed, new OffsetAndMetadata(5)));

        admin.deleteTopics(List.of("doomed")).all().get();

        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).untilAsserted(() -> {
            assertThat(EmbeddedKaas.committedOffsets(admin, "loaded")).containsOnlyKeys(kept);
            assertThat(EmbeddedKaas.committedOffsets(admin, "only-doomed")).isEmpty();
        });
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() ->
                !Files.exists(kaas.dataDir().resolve("__cluster/__consumer_offsets/only-doomed.json")));

        kaas.createTopic("doomed", 2);
        kaas.closeClients();
        kaas.restart();
        Admin after = kaas.admin();
        assertThat(EmbeddedKaas.committedOffsets(after, "loaded")).containsOnlyKeys(kept);
        assertThat(after.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                .contains("loaded").doesNotContain("only-doomed");
    }

    @Test
    void memoryModeKeepsOffsetsWhileTheBrokerRuns() throws Exception {
        Map<String, String> env = new HashMap<>(EmbeddedKaas.FAST_GROUPS);
        env.put("KAAS_STORAGE", "memory");
        try (EmbeddedKaas memory = EmbeddedKaas.inTempDir(env).start()) {
            memory.createTopic("m", 1);
            TopicPartition tp = new TopicPartition("m", 0);
            commit(memory, "in-memory", Map.of(tp, new OffsetAndMetadata(2)));
            assertThat(EmbeddedKaas.committedOffsets(memory.admin(), "in-memory"))
                    .containsEntry(tp, new OffsetAndMetadata(2));
            assertThat(memory.dataDir().resolve("__cluster/__consumer_offsets")).doesNotExist();
        }
    }
}
