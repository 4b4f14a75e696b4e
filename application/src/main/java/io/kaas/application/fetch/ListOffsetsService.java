package io.kaas.application.fetch;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.TimestampOffset;
import io.kaas.application.port.in.ListOffsetsUseCase;
import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Resolves ListOffsets timestamps and sentinels against a partition's log: sentinels from the
 * published offsets, timestamps on the I/O executor by reading the log's time index and batch
 * headers, then the records of the batch that holds the answer.
 */
public final class ListOffsetsService implements ListOffsetsUseCase {
    private final TopicService topics;
    private final Executor io;
    private final BatchRecordSearch records;

    public ListOffsetsService(TopicService topics, Executor io, BatchRecordSearch records) {
        this.topics = topics;
        this.io = io;
        this.records = records;
    }

    /**
     * As Apache's {@code Partition.fetchOffsetForTimestamp}: LATEST is the high watermark, or the last
     * stable offset for read_committed; a lookup by timestamp only finds offsets below that.
     */
    @Override
    public CompletionStage<Result> listOffset(TopicPartition partition, long timestamp, boolean readCommitted,
                                              int currentLeaderEpoch) {
        Optional<PartitionLog> found = topics.log(partition);
        if (found.isEmpty()) {
            return CompletableFuture.completedFuture(Result.failed(topics.notServedHere(partition)));
        }
        PartitionLog log = found.get();
        int epoch = log.leaderEpoch();
        KafkaError fenced = LeaderEpochCheck.check(currentLeaderEpoch, epoch);
        if (fenced != KafkaError.NONE) {
            return CompletableFuture.completedFuture(Result.failed(fenced));
        }
        LogOffsets offsets = log.offsets();
        long fetchable = readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
        if (timestamp == EARLIEST || timestamp == EARLIEST_LOCAL) {
            return CompletableFuture.completedFuture(new Result(KafkaError.NONE, -1L, offsets.logStartOffset(), epoch));
        }
        if (timestamp == LATEST) {
            return CompletableFuture.completedFuture(new Result(KafkaError.NONE, -1L, fetchable, epoch));
        }
        return CompletableFuture.supplyAsync(() -> lookUp(log, timestamp, offsets, fetchable, epoch), io);
    }

    /** A lookup by timestamp, or of the largest timestamp: reads the log's files. */
    private Result lookUp(PartitionLog log, long timestamp, LogOffsets offsets, long fetchable, int epoch) {
        if (timestamp == MAX_TIMESTAMP) {
            // Apache answers a log without timestamps with no timestamp at the first offset, if it is fetchable:
            // an empty log matches nothing
            Optional<TimestampOffset> max = log.maxTimestamp()
                    .or(() -> Optional.of(new TimestampOffset(-1L, offsets.logStartOffset())));
            return found(max.filter(m -> m.offset() < fetchable), epoch);
        }
        return found(log.offsetForTimestamp(timestamp, records).filter(m -> m.offset() < fetchable), epoch);
    }

    private static Result found(Optional<TimestampOffset> match, int epoch) {
        return match.map(m -> new Result(KafkaError.NONE, m.timestamp(), m.offset(), epoch))
                .orElseGet(() -> new Result(KafkaError.NONE, -1L, -1L, -1));
    }
}
