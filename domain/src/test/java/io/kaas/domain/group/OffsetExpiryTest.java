package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code offsets.retention.minutes}: which offsets expire in which group state, as Apache 3.7. */
class OffsetExpiryTest {
    private static final TopicPartition SUBSCRIBED = new TopicPartition("t", 0);
    private static final TopicPartition UNSUBSCRIBED = new TopicPartition("old", 0);

    private final GroupTestContext ctx = new GroupTestContext();
    private final long retention = ctx.config.offsetsRetentionMs();

    private Map<TopicPartition, CommittedOffset> committedAt(long commitMs) {
        Map<TopicPartition, CommittedOffset> offsets = new LinkedHashMap<>();
        for (TopicPartition tp : List.of(SUBSCRIBED, UNSUBSCRIBED)) {
            offsets.put(tp, new CommittedOffset(42, CommittedOffset.NO_LEADER_EPOCH, "", commitMs, UUID.randomUUID()));
        }
        return offsets;
    }

    @Test
    void anEmptyGroupLosesEveryOffsetOnceEmptyForTheRetentionWhateverTheCommitTimes() {
        List<String> members = ctx.stableGroup("c1");
        ctx.leave(members.get(0));
        long emptySince = ctx.nowMs;
        Map<TopicPartition, CommittedOffset> old = committedAt(emptySince - retention * 2);

        assertThat(ctx.group.state()).isEqualTo(GroupState.EMPTY);
        assertThat(OffsetRetention.expired(ctx.group, old, emptySince + retention - 1, retention))
                .as("old commits, but the group only just became empty").isEmpty();
        assertThat(OffsetRetention.expired(ctx.group, old, emptySince + retention, retention))
                .containsExactlyInAnyOrder(SUBSCRIBED, UNSUBSCRIBED);
    }

    @Test
    void aStableConsumerGroupLosesOnlyOldOffsetsOfTopicsItNoLongerSubscribesTo() {
        ctx.stableGroup("c1");
        Map<TopicPartition, CommittedOffset> offsets = committedAt(ctx.nowMs);

        assertThat(OffsetRetention.expired(ctx.group, offsets, ctx.nowMs + retention - 1, retention)).isEmpty();
        assertThat(OffsetRetention.expired(ctx.group, offsets, ctx.nowMs + retention * 10, retention))
                .as("the subscribed topic's offsets never expire while the group consumes it")
                .containsExactly(UNSUBSCRIBED);
    }

    @Test
    void aRebalancingGroupLosesNothing() {
        List<String> members = ctx.stableGroup("c1", "c2");
        ctx.leave(members.get(1));
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(OffsetRetention.expired(ctx.group, committedAt(0), ctx.nowMs + retention * 10, retention)).isEmpty();
    }

    @Test
    void anOffsetsOnlyGroupLosesEachOffsetCountingFromItsCommit() {
        ClassicGroup offsetsOnly = ClassicGroup.restored("g", null, ctx.config, 0);
        Map<TopicPartition, CommittedOffset> offsets = committedAt(1_000);
        offsets.put(new TopicPartition("t", 1),
                new CommittedOffset(7, CommittedOffset.NO_LEADER_EPOCH, "", 5_000, UUID.randomUUID()));

        assertThat(OffsetRetention.expired(offsetsOnly, offsets, 1_000 + retention, retention))
                .containsExactlyInAnyOrder(SUBSCRIBED, UNSUBSCRIBED);
    }

    @Test
    void aGroupRestoredAfterARestartCountsItsEmptinessFromTheLoad() {
        long loadedAt = 1_000_000;
        ClassicGroup restored = ClassicGroup.restored("g", "consumer", ctx.config, loadedAt);
        Map<TopicPartition, CommittedOffset> ancient = committedAt(0);

        assertThat(OffsetRetention.expired(restored, ancient, loadedAt + retention - 1, retention)).isEmpty();
        assertThat(OffsetRetention.expired(restored, ancient, loadedAt + retention, retention)).hasSize(2);
    }

    @Test
    void onlyAnEmptyGroupIsDroppedWhenItHasNoOffsetsLeft() {
        List<String> members = ctx.stableGroup("c1");
        assertThat(ctx.run(new GroupCommand.DropIfEmpty())).isFalse();
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);

        ctx.leave(members.get(0));
        assertThat(ctx.run(new GroupCommand.DropIfEmpty())).isTrue();
        assertThat(ctx.group.state()).isEqualTo(GroupState.DEAD);
    }

    @Test
    void anOffsetCommittedWithItsOwnRetentionTimeExpiresThenInsteadOfByTheBrokersRetention() {
        ClassicGroup offsetsOnly = ClassicGroup.restored("g", null, ctx.config, 0);
        Map<TopicPartition, CommittedOffset> offsets = new LinkedHashMap<>();
        offsets.put(SUBSCRIBED, new CommittedOffset(1, CommittedOffset.NO_LEADER_EPOCH, "", 1_000, 1_500, null));
        offsets.put(UNSUBSCRIBED, new CommittedOffset(2, CommittedOffset.NO_LEADER_EPOCH, "", 1_000,
                1_000 + retention * 3, null));

        assertThat(OffsetRetention.expired(offsetsOnly, offsets, 1_499, retention)).isEmpty();
        assertThat(OffsetRetention.expired(offsetsOnly, offsets, 1_500, retention)).as("its own, shorter, retention")
                .containsExactly(SUBSCRIBED);
        assertThat(OffsetRetention.expired(offsetsOnly, offsets, 1_000 + retention, retention))
                .as("its own, longer, retention outlasts the broker's").containsExactly(SUBSCRIBED);
    }
}
