package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.topic.TopicPartition;
import java.util.concurrent.CompletionStage;

/** Resolves a timestamp or a sentinel to an offset (what {@code auto.offset.reset} and offsetsForTimes use). */
public interface ListOffsetsUseCase {
    long LATEST = -1L;
    long EARLIEST = -2L;
    long MAX_TIMESTAMP = -3L;
    /** Tiered storage's local log start; without a remote tier it is the log start. */
    long EARLIEST_LOCAL = -4L;

    /** A lookup that names no leader epoch. */
    default CompletionStage<Result> listOffset(TopicPartition partition, long timestamp, boolean readCommitted) {
        return listOffset(partition, timestamp, readCommitted, LeaderEpochCheck.NO_EPOCH);
    }

    /**
     * {@code currentLeaderEpoch}: the leader epoch the client believes current (v4+), -1 for none.
     * A sentinel is answered at once; a lookup by timestamp reads the log's index and batch headers,
     * so it completes on an I/O thread.
     */
    CompletionStage<Result> listOffset(TopicPartition partition, long timestamp, boolean readCommitted, int currentLeaderEpoch);

    /** {@code offset == -1} and {@code timestamp == -1} when no record matches, as Apache answers. */
    record Result(KafkaError error, long timestamp, long offset, int leaderEpoch) {
        public static Result failed(KafkaError error) {
            return new Result(error, -1L, -1L, -1);
        }
    }
}
