package io.kaas.domain.group;

import java.util.UUID;

/**
 * A committed consumer position for one partition.
 *
 * @param leaderEpoch       the leader epoch of the record the offset follows, -1 when unknown
 * @param metadata          the committer's string, "" when none
 * @param commitTimestampMs when the broker accepted the commit (or, for OffsetCommit v1, the committer's own time)
 * @param expireTimestampMs when the offset expires whatever the group does: the retention time OffsetCommit
 *                          v2-4 may carry, added to the commit time; {@link #NO_EXPIRE_TIMESTAMP} when it
 *                          follows {@code offsets.retention.minutes}
 * @param topicId           the incarnation of the topic committed to (KIP-516): an offset outlives
 *                          neither its topic nor a topic re-created under the same name; null if unknown
 */
public record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs,
                              long expireTimestampMs, UUID topicId) {
    /** The leader epoch of a commit that carries none. */
    public static final int NO_LEADER_EPOCH = -1;
    /** A commit without its own retention time. */
    public static final long NO_EXPIRE_TIMESTAMP = -1L;

    public CommittedOffset {
        metadata = metadata == null ? "" : metadata;
    }

    /** A commit without its own retention time. */
    public CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs, UUID topicId) {
        this(offset, leaderEpoch, metadata, commitTimestampMs, NO_EXPIRE_TIMESTAMP, topicId);
    }

    /**
     * Whether {@code offsets.retention.minutes} ({@code retentionMs}) has expired this offset at
     * {@code nowMs}, counting from {@code baseMs} — unless the commit carried its own expiry time,
     * which then decides, as in Apache's {@code GroupMetadata.getExpiredOffsets}.
     */
    public boolean expiredAt(long nowMs, long baseMs, long retentionMs) {
        return expireTimestampMs != NO_EXPIRE_TIMESTAMP ? nowMs >= expireTimestampMs : nowMs - baseMs >= retentionMs;
    }

    /** Whether this offset was committed to {@code topic}'s current incarnation. */
    public boolean belongsTo(UUID currentTopicId) {
        return topicId == null || topicId.equals(currentTopicId);
    }
}
