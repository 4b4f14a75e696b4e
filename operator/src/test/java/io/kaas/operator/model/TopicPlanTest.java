package io.kaas.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicPlanTest {
    private static final UUID ID = UUID.fromString("6f1c0d9e-3b7a-4c55-9d2e-0a1b2c3d4e5f");
    private static final UUID OLD = UUID.fromString("0b9e8f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b");
    private static final Map<String, String> RETENTION = Map.of("retention.ms", "86400000");

    @Test
    void aTopicWithNoDirectoryIsCreatedWhole() {
        TopicPlan plan = TopicPlan.of(desired(3, RETENTION), ID, Optional.empty(), Set.of());

        assertThat(plan).isEqualTo(new TopicPlan.Materialize(new Topic("orders", ID, 3, RETENTION), Optional.empty(), 0,
                true));
    }

    @Test
    void itsOwnIncarnationIsLeftAloneWhenNothingChanged() {
        Topic stored = new Topic("orders", ID, 3, RETENTION);

        TopicPlan plan = TopicPlan.of(desired(3, RETENTION), ID, Optional.of(stored), Set.of());

        assertThat(plan).isEqualTo(new TopicPlan.Materialize(stored, Optional.empty(), 3, false));
    }

    @Test
    void moreWantedPartitionsAreAddedAfterTheExistingOnesAndAConfigChangeRewritesTheDefinition() {
        TopicPlan plan = TopicPlan.of(desired(5, Map.of()), ID, Optional.of(new Topic("orders", ID, 3, RETENTION)),
                Set.of());

        assertThat(plan).isEqualTo(new TopicPlan.Materialize(new Topic("orders", ID, 5, Map.of()), Optional.empty(), 3,
                true));
    }

    @Test
    void fewerPartitionsAreRefused() {
        TopicPlan plan = TopicPlan.of(desired(2, RETENTION), ID, Optional.of(new Topic("orders", ID, 3, RETENTION)),
                Set.of());

        assertThat(plan).isInstanceOfSatisfying(TopicPlan.Refuse.class, refuse -> {
            assertThat(refuse.refusal().reason()).isEqualTo(Refusal.PARTITION_DECREASE_REFUSED);
            assertThat(refuse.refusal().message()).contains("has 3 partitions", "spec.partitions 2");
        });
    }

    @Test
    void aStampNoLiveKafkaTopicHoldsIsAPreviousIncarnationToReclaim() {
        Topic previous = new Topic("orders", OLD, 8, Map.of());

        TopicPlan plan = TopicPlan.of(desired(3, RETENTION), ID, Optional.of(previous), Set.of(UUID.randomUUID()));

        assertThat(plan).isEqualTo(new TopicPlan.Materialize(new Topic("orders", ID, 3, RETENTION), Optional.of(previous),
                0, true));
    }

    @Test
    void aStampAnotherLiveKafkaTopicHoldsIsNeverReclaimed() {
        TopicPlan plan = TopicPlan.of(desired(3, RETENTION), ID, Optional.of(new Topic("orders", OLD, 3, Map.of())),
                Set.of(OLD));

        assertThat(plan).isInstanceOfSatisfying(TopicPlan.Refuse.class,
                refuse -> assertThat(refuse.refusal().reason()).isEqualTo(Refusal.TOPIC_NAME_CONFLICT));
    }

    private static DesiredTopic desired(int partitions, Map<String, String> configs) {
        return new DesiredTopic("orders", partitions, configs, List.of(PoolVolume.DEFAULT_NAME),
                List.of(PoolVolume.DEFAULT_NAME));
    }
}
