package io.kaas.domain.log;

import io.kaas.domain.error.KafkaError;

/**
 * The {@code current_leader_epoch} a client sends with Fetch (v9+) and ListOffsets (v4+), checked as
 * Apache's {@code Partition.validateCurrentLeaderEpoch}: an older epoch means the client's metadata
 * is stale (FENCED_LEADER_EPOCH), a newer one that this broker has not caught up
 * (UNKNOWN_LEADER_EPOCH); either way the client refreshes its metadata and retries.
 */
public final class LeaderEpochCheck {
    /** A request that names no epoch, which is not checked. */
    public static final int NO_EPOCH = -1;

    private LeaderEpochCheck() {
    }

    public static KafkaError check(int requestedEpoch, int leaderEpoch) {
        if (requestedEpoch == NO_EPOCH || requestedEpoch == leaderEpoch) {
            return KafkaError.NONE;
        }
        return requestedEpoch < leaderEpoch ? KafkaError.FENCED_LEADER_EPOCH : KafkaError.UNKNOWN_LEADER_EPOCH;
    }
}
