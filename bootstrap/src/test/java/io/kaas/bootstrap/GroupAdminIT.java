package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.ConsumerGroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The AdminClient's consumer-group surface against groups of real consumers. */
class GroupAdminIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS);

    /** Two consumers of a 4-partition topic, stable with two partitions each. */
    private static List<PollingConsumer> stableGroup(EmbeddedKaas kaas, String group, String topic) {
        kaas.createTopic(topic, 4);
        List<PollingConsumer> consumers = List.of(kaas.groupMember(group, topic), kaas.groupMember(group, topic));
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> consumers.stream().allMatch(c -> c.assignment().size() == 2));
        return consumers;
    }

    private static Throwable cause(ExecutionException e) {
        return e.getCause();
    }

    @Test
    void listsAndDescribesAStableGroup(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("described");
        String group = topic + "-group";
        Admin admin = kaas.admin();
        List<PollingConsumer> consumers = stableGroup(kaas, group, topic);
        try {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).untilAsserted(() -> {
                var listed = admin.listConsumerGroups(new ListConsumerGroupsOptions()
                        .inStates(Set.of(ConsumerGroupState.STABLE))).all().get();
                assertThat(listed).extracting(ConsumerGroupListing::groupId).contains(group);
            });
            ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group))
                    .describedGroups().get(group).get();

            assertThat(described.state()).isEqualTo(ConsumerGroupState.STABLE);
            assertThat(described.partitionAssignor()).isEqualTo("range");
            assertThat(described.isSimpleConsumerGroup()).isFalse();
            assertThat(described.coordinator().port()).isEqualTo(Integer.parseInt(kaas.bootstrapServers().split(":")[1]));
            assertThat(described.members()).hasSize(2).allSatisfy(m -> {
                assertThat(m.host()).isEqualTo("/127.0.0.1");
                assertThat(m.clientId()).startsWith("consumer-" + group);
                assertThat(m.assignment().topicPartitions()).hasSize(2);
            });
            Set<TopicPartition> assigned = new HashSet<>();
            described.members().stream().map(MemberDescription::assignment).forEach(a -> assigned.addAll(a.topicPartitions()));
            assertThat(assigned).hasSize(4);
            assertThat(described.members()).extracting(MemberDescription::consumerId)
                    .containsExactlyInAnyOrder(consumers.get(0).memberId(), consumers.get(1).memberId());
        } finally {
            consumers.forEach(PollingConsumer::close);
        }
        var unknown = admin.describeConsumerGroups(List.of("never-existed")).describedGroups().get("never-existed").get();
        assertThat(unknown.state()).isEqualTo(ConsumerGroupState.DEAD);
    }

    @Test
    void anActiveGroupCannotBeDeleted_anEmptyOneGoesWithItsOffsets(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("deleted");
        String group = topic + "-group";
        Admin admin = kaas.admin();
        List<PollingConsumer> consumers = stableGroup(kaas, group, topic);
        consumers.get(0).commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)));

        ExecutionException busy = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.deleteConsumerGroups(List.of(group)).all().get());
        assertThat(cause(busy)).isInstanceOf(GroupNotEmptyException.class);

        consumers.forEach(PollingConsumer::close);
        admin.deleteConsumerGroups(List.of(group)).all().get();

        assertThat(admin.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                .doesNotContain(group);
        assertThat(EmbeddedKaas.committedOffsets(admin, group)).isEmpty();
        ExecutionException gone = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.deleteConsumerGroups(List.of(group)).all().get());
        assertThat(cause(gone)).isInstanceOf(GroupIdNotFoundException.class);
    }

    @Test
    void offsetsOfAConsumedTopicCannotBeDeletedWhileTheGroupIsActive(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("consumed");
        String group = topic + "-group";
        String other = EmbeddedKaas.uniqueTopicName("other");
        Admin admin = kaas.admin();
        kaas.createTopic(other, 1);
        List<PollingConsumer> consumers = stableGroup(kaas, group, topic);
        TopicPartition consumed = new TopicPartition(topic, 0);
        TopicPartition notConsumed = new TopicPartition(other, 0);
        consumers.get(0).commitSync(Map.of(consumed, new OffsetAndMetadata(3), notConsumed, new OffsetAndMetadata(4)));

        ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.deleteConsumerGroupOffsets(group, Set.of(consumed)).all().get());
        assertThat(cause(refused)).isInstanceOf(GroupSubscribedToTopicException.class);
        admin.deleteConsumerGroupOffsets(group, Set.of(notConsumed)).all().get();
        assertThat(EmbeddedKaas.committedOffsets(admin, group)).containsOnlyKeys(consumed);

        consumers.forEach(PollingConsumer::close);
        admin.deleteConsumerGroupOffsets(group, Set.of(consumed)).all().get();
        assertThat(EmbeddedKaas.committedOffsets(admin, group)).isEmpty();
    }

    @Test
    void offsetsOfAnEmptyGroupCanBeAltered(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("altered");
        String group = topic + "-group";
        Admin admin = kaas.admin();
        List<PollingConsumer> consumers = stableGroup(kaas, group, topic);
        TopicPartition tp = new TopicPartition(topic, 1);
        consumers.get(0).commitSync(Map.of(tp, new OffsetAndMetadata(5)));

        ExecutionException active = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.alterConsumerGroupOffsets(group, Map.of(tp, new OffsetAndMetadata(0))).all().get());
        assertThat(cause(active)).isInstanceOf(UnknownMemberIdException.class);

        consumers.forEach(PollingConsumer::close);
        admin.alterConsumerGroupOffsets(group, Map.of(tp, new OffsetAndMetadata(0, "reset"),
                new TopicPartition(topic, 3), new OffsetAndMetadata(9))).all().get();

        assertThat(EmbeddedKaas.committedOffsets(admin, group))
                .containsOnly(Map.entry(tp, new OffsetAndMetadata(0, "reset")),
                        Map.entry(new TopicPartition(topic, 3), new OffsetAndMetadata(9)));
        ExecutionException unknownTopic = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition("no-such-topic", 0),
                        new OffsetAndMetadata(1))).all().get());
        assertThat(cause(unknownTopic)).isInstanceOf(UnknownTopicOrPartitionException.class);
        assertThat(admin.listConsumerGroups().all().get()).filteredOn(g -> g.groupId().equals(group))
                .singleElement().satisfies(g -> assertThat(g.state()).contains(ConsumerGroupState.EMPTY));
    }
}
