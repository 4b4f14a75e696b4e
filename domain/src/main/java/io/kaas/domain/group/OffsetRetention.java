package io.kaas.domain.group;

import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** {@code offsets.retention.minutes}: which of a group's committed offsets have expired. */
public final class OffsetRetention {
    private OffsetRetention() {
    }

    /**
     * The offsets that {@code offsets.retention.minutes} has expired, as Apache 3.7's
     * {@code GroupMetadata.removeExpiredOffsets}: all of an empty group's once it has been empty
     * for the retention; a stable consumer group's only for topics it no longer subscribes to, each
     * counted from its commit; an offsets-only group's (no protocol type) each from its commit. An
     * offset committed with its own retention time (OffsetCommit v2-4) expires at that time instead,
     * in those same cases. Other states expire nothing. The caller leaves out offsets with a commit in flight.
     */
    public static Set<TopicPartition> expired(ClassicGroup group, Map<TopicPartition, CommittedOffset> committed,
                                              long nowMs, long retentionMs) {
        Set<TopicPartition> expired = new LinkedHashSet<>();
        committed.forEach((tp, c) -> {
            if (expires(group, tp, c, nowMs, retentionMs)) {
                expired.add(tp);
            }
        });
        return expired;
    }

    private static boolean expires(ClassicGroup group, TopicPartition tp, CommittedOffset c, long nowMs,
                                   long retentionMs) {
        if (group.protocolType() == null) {
            return c.expiredAt(nowMs, c.commitTimestampMs(), retentionMs);
        }
        if (group.state() == GroupState.EMPTY) {
            return c.expiredAt(nowMs, group.emptySinceMs(), retentionMs);
        }
        Set<String> subscribed = group.subscribedTopics();
        return group.state() == GroupState.STABLE && ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType())
                && subscribed != null && !subscribed.contains(tp.topic())
                && c.expiredAt(nowMs, c.commitTimestampMs(), retentionMs);
    }
}
