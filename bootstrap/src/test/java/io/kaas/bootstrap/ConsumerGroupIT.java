package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
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
import org.junit.jupiter.api.TestInfo;

/** Real kafka-clients 3.7 consumers in groups on an in-process broker. */
class ConsumerGroupIT extends GroupBrokerTestBase {
    private static Set<TopicPartition> partitions(String topic, int count) {
        Set<TopicPartition> all = new HashSet<>();
        IntStream.range(0, count).forEach(p -> all.add(new TopicPartition(topic, p)));
        return all;
    }

    private static void awaitAssignments(List<PollingConsumer> consumers, int each, Set<TopicPartition> all) {
        await().atMost(GroupBrokerFixture.timeout()).untilAsserted(() -> {
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
    void threeConsumersShareSixPartitions_andALeaversPartitionsMove(TestInfo test) {
        String topic = unique(test, "topic");
        String group = unique(test, "group");
        broker.createTopic(topic, 6);
        try (PollingConsumer a = broker.consumer(group, topic);
             PollingConsumer b = broker.consumer(group, topic);
             PollingConsumer c = broker.consumer(group, topic)) {
            awaitAssignments(List.of(a, b, c), 2, partitions(topic, 6));

            c.close();

            awaitAssignments(List.of(a, b), 3, partitions(topic, 6));
        }
    }

    @Test
    void theCooperativeStickyAssignorWorks(TestInfo test) {
        String topic = unique(test, "topic");
        String group = unique(test, "group");
        broker.createTopic(topic, 6);
        Properties props = broker.consumerProps(group);
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        try (PollingConsumer a = new PollingConsumer(props, List.of(topic));
             PollingConsumer b = new PollingConsumer(props, List.of(topic))) {
            awaitAssignments(List.of(a, b), 3, partitions(topic, 6));
            Set<TopicPartition> keptByA = a.assignment();

            b.close();

            awaitAssignments(List.of(a), 6, partitions(topic, 6));
            assertThat(a.assignment()).containsAll(keptByA);
        }
    }

    @Test
    void aNewConsumerResumesFromTheCommittedOffsets(TestInfo test) {
        String topic = unique(test, "topic");
        String group = unique(test, "group");
        broker.createTopic(topic, 3);
        broker.produce(topic, 30);
        try (PollingConsumer first = broker.consumer(group, topic)) {
            await().atMost(GroupBrokerFixture.timeout()).until(() -> first.records().size() == 30);
            first.call(consumer -> {
                consumer.commitSync();
                return null;
            });
        }
        broker.produce(topic, 12, "after-commit-");
        try (PollingConsumer second = broker.consumer(group, topic)) {
            await().atMost(GroupBrokerFixture.timeout()).until(() -> second.records().size() >= 12);
            assertThat(second.records()).hasSize(12).allSatisfy(r -> assertThat(r.value()).startsWith("after-commit-"));
        }
    }

    @Test
    void committedOffsetsKeepTheirMetadataAndLeaderEpoch(TestInfo test) {
        String topic = unique(test, "topic");
        broker.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (PollingConsumer c = broker.consumer(unique(test, "group"), topic)) {
            await().atMost(GroupBrokerFixture.timeout()).until(() -> c.assignment().contains(tp));
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
    void aManualAssignmentConsumerCommitsWithoutJoining(TestInfo test) throws Exception {
        String topic = unique(test, "topic");
        String group = unique(test, "group");
        broker.createTopic(topic, 2);
        TopicPartition tp = new TopicPartition(topic, 1);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(broker.consumerProps(group))) {
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(11, "manual")));
            assertThat(consumer.committed(Set.of(tp)).get(tp)).isEqualTo(new OffsetAndMetadata(11, "manual"));
        }
        var described = broker.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
        assertThat(described.members()).isEmpty();
        assertThat(described.state()).isEqualTo(ConsumerGroupState.EMPTY);
    }

    @Test
    void aRestartedStaticMemberGetsItsAssignmentBackWithoutARebalance(TestInfo test) {
        String topic = unique(test, "topic");
        String group = unique(test, "group");
        broker.createTopic(topic, 4);
        Properties props = broker.consumerProps(group);
        props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a");
        Properties otherProps = broker.consumerProps(group);
        otherProps.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b");
        try (PollingConsumer other = new PollingConsumer(otherProps, List.of(topic))) {
            Set<TopicPartition> before;
            int generation;
            try (PollingConsumer a = new PollingConsumer(props, List.of(topic))) {
                awaitAssignments(List.of(a, other), 2, partitions(topic, 4));
                before = a.assignment();
                generation = a.generation();
            } // a static member leaves no LeaveGroup behind: its place is kept for the session timeout

            try (PollingConsumer restarted = new PollingConsumer(props, List.of(topic))) {
                await().atMost(GroupBrokerFixture.timeout()).until(() -> restarted.assignment().size() == 2);
                assertThat(restarted.assignment()).isEqualTo(before);
                assertThat(restarted.generation()).as("no rebalance").isEqualTo(generation);
                assertThat(other.generation()).isEqualTo(generation);
            }
        }
    }

    @Test
    void aSessionTimeoutBeyondTheBrokersRangeIsRefused(TestInfo test) {
        String topic = unique(test, "topic");
        broker.createTopic(topic, 1);
        Properties props = broker.consumerProps(unique(test, "group"));
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "120000");
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        try (PollingConsumer c = new PollingConsumer(props, List.of(topic))) {
            await().atMost(GroupBrokerFixture.timeout()).until(() -> c.failure() != null);
            assertThat(c.failure()).isInstanceOf(InvalidSessionTimeoutException.class);
        }
    }
}
