package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.ConsumerGroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidSessionTimeoutException;
import org.apache.kafka.common.errors.OffsetMetadataTooLarge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real kafka-clients 3.7 consumers in groups on an in-process broker. One broker serves the whole
 * class (one per test would dominate the run time); tests keep apart by their topic and group names.
 */
class ConsumerGroupIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS);

    private static Set<TopicPartition> partitions(String topic, int count) {
        Set<TopicPartition> all = new HashSet<>();
        IntStream.range(0, count).forEach(p -> all.add(new TopicPartition(topic, p)));
        return all;
    }

    private static void awaitAssignments(List<PollingConsumer> consumers, int each, Set<TopicPartition> all) {
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).untilAsserted(() -> {
            Set<TopicPartition> union = new HashSet<>();
            int total = 0;
            for (PollingConsumer c : consumers) {
                assertThat(c.failure()).isNull();
                assertThat(c.assignment()).hasSize(each);
                union.addAll(c.assignment());
                total += c.assignment().size();
            }
            assertThat(union).isEqualTo(all);
            assertThat(total).as("each partition exactly once").isEqualTo(all.size());
        });
    }

    @Test
    void threeConsumersShareSixPartitions_andALeaversPartitionsMove(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("shared");
        String group = topic + "-group";
        kaas.createTopic(topic, 6);
        try (PollingConsumer a = kaas.groupMember(group, topic);
             PollingConsumer b = kaas.groupMember(group, topic);
             PollingConsumer c = kaas.groupMember(group, topic)) {
            awaitAssignments(List.of(a, b, c), 2, partitions(topic, 6));

            c.close();

            awaitAssignments(List.of(a, b), 3, partitions(topic, 6));
        }
    }

    @Test
    void theCooperativeStickyAssignorWorks(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("cooperative");
        String group = topic + "-group";
        kaas.createTopic(topic, 6);
        Map<String, Object> cooperative = Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                CooperativeStickyAssignor.class.getName());
        try (PollingConsumer a = kaas.groupMember(group, cooperative, topic);
             PollingConsumer b = kaas.groupMember(group, cooperative, topic)) {
            awaitAssignments(List.of(a, b), 3, partitions(topic, 6));
            Set<TopicPartition> keptByA = a.assignment();

            b.close();

            awaitAssignments(List.of(a), 6, partitions(topic, 6));
            assertThat(a.assignment()).containsAll(keptByA);
        }
    }

    @Test
    void aNewConsumerResumesFromTheCommittedOffsets(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("resumed");
        String group = topic + "-group";
        kaas.createTopic(topic, 3);
        kaas.produce(topic, 30, "value-");
        try (PollingConsumer first = kaas.groupMember(group, topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> first.records().size() == 30);
            first.call(consumer -> {
                consumer.commitSync();
                return null;
            });
        }
        kaas.produce(topic, 12, "after-commit-");
        try (PollingConsumer second = kaas.groupMember(group, topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> second.records().size() >= 12);
            assertThat(second.records()).hasSize(12)
                    .allSatisfy(r -> assertThat(r.value()).asString().startsWith("after-commit-"));
        }
    }

    @Test
    void committedOffsetsKeepTheirMetadataAndLeaderEpoch(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("metadata");
        kaas.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (PollingConsumer c = kaas.groupMember(topic + "-group", topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> c.assignment().contains(tp));
            OffsetAndMetadata committed = new OffsetAndMetadata(7, Optional.of(0), "checkpoint ✓");
            Map<TopicPartition, OffsetAndMetadata> read = c.call(consumer -> {
                consumer.commitSync(Map.of(tp, committed));
                return consumer.committed(Set.of(tp));
            });
            assertThat(read.get(tp)).isEqualTo(committed);

            assertThatThrownBy(() -> c.call(consumer -> {
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(8, "x".repeat(5_000))));
                return null;
            })).isInstanceOf(OffsetMetadataTooLarge.class);
        }
    }

    @Test
    void aManualAssignmentConsumerCommitsWithoutJoining(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("manual");
        String group = topic + "-group";
        kaas.createTopic(topic, 2);
        TopicPartition tp = new TopicPartition(topic, 1);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.groupConsumerConfig(group, Map.of()))) {
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(11, "manual")));
            assertThat(consumer.committed(Set.of(tp)).get(tp)).isEqualTo(new OffsetAndMetadata(11, "manual"));
        }
        var described = kaas.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
        assertThat(described.members()).isEmpty();
        assertThat(described.state()).isEqualTo(ConsumerGroupState.EMPTY);
    }

    @Test
    void aRestartedStaticMemberGetsItsAssignmentBackWithoutARebalance(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("static");
        String group = topic + "-group";
        kaas.createTopic(topic, 4);
        Map<String, Object> instanceA = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a");
        Map<String, Object> instanceB = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b");
        try (PollingConsumer other = kaas.groupMember(group, instanceB, topic)) {
            Set<TopicPartition> before;
            int generation;
            try (PollingConsumer a = kaas.groupMember(group, instanceA, topic)) {
                awaitAssignments(List.of(a, other), 2, partitions(topic, 4));
                before = a.assignment();
                generation = a.generation();
            } // a static member leaves no LeaveGroup behind: its place is kept for the session timeout

            try (PollingConsumer restarted = kaas.groupMember(group, instanceA, topic)) {
                await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> restarted.assignment().size() == 2);
                assertThat(restarted.assignment()).isEqualTo(before);
                assertThat(restarted.generation()).as("no rebalance").isEqualTo(generation);
                assertThat(other.generation()).isEqualTo(generation);
            }
        }
    }

    @Test
    void aSessionTimeoutBeyondTheBrokersRangeIsRefused(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("session");
        kaas.createTopic(topic, 1);
        Map<String, Object> tooLong = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 120_000,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (PollingConsumer c = kaas.groupMember(topic + "-group", tooLong, topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> c.failure() != null);
            assertThat(c.failure()).isInstanceOf(InvalidSessionTimeoutException.class);
        }
    }
}
