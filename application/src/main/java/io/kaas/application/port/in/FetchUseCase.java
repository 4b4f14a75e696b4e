package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Reads batches from partition logs, long-polling when there is not enough yet. */
public interface FetchUseCase {

    /**
     * Reads every requested partition. If fewer than {@code minBytes} are available (and no
     * partition failed) the fetch is parked until appends bring enough or {@code maxWaitMs} passes,
     * then answered with whatever is there.
     */
    CompletionStage<List<PartitionData>> fetch(Command command);

    /** {@code readCommitted}: read_committed isolation, capped at the last stable offset. */
    record Command(int maxWaitMs, int minBytes, int maxBytes, boolean readCommitted, List<PartitionRequest> partitions) {
    }

    /** {@code currentLeaderEpoch}: the leader epoch the client believes current (Fetch v9+), -1 for none. */
    record PartitionRequest(TopicPartition partition, long fetchOffset, int maxBytes, int currentLeaderEpoch) {
        /** A request that names no leader epoch. */
        public PartitionRequest(TopicPartition partition, long fetchOffset, int maxBytes) {
            this(partition, fetchOffset, maxBytes, LeaderEpochCheck.NO_EPOCH);
        }
    }

    /**
     * One partition's answer: its offsets and whole contiguous batches (possibly none), or an error;
     * for read_committed, below the last stable offset and with the aborted transactions they overlap.
     */
    record PartitionData(TopicPartition partition, KafkaError error, LogOffsets offsets, FetchedRecords records,
                         List<AbortedTxn> abortedTransactions) {
        public PartitionData(TopicPartition partition, KafkaError error, LogOffsets offsets, FetchedRecords records) {
            this(partition, error, offsets, records, List.of());
        }

        public int sizeInBytes() {
            return records.sizeInBytes();
        }
    }
}
