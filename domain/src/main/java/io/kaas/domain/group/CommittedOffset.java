package io.kaas.domain.group;

import java.util.UUID;

/**
 * A committed consumer position for one partition.
 *
 * @param leaderEpoch       the leader epoch of the record the offset follows, -1 when unknown
 * @param metadata          the committer's string, "" when none
 * @param commitTimestampMs when the broker accepted the commit
 * @param topicId           the incarnation of the topic committed to (KIP-516): an offset outlives
 *                          neither its topic nor a topic re-created under the same name; null if unknown
 */
public record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs, UUID topicId) {
    /** The leader epoch of a commit that carries none. */
    public static final int NO_LEADER_EPOCH = -1;

    public CommittedOffset {
        metadata = metadata == null ? "" : metadata;
    }

    /** Whether this offset was committed to {@code topic}'s current incarnation. */
    public boolean belongsTo(UUID currentTopicId) {
        return topicId == null || topicId.equals(currentTopicId);
    }
}
