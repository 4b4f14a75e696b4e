package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import java.util.List;

/**
 * Batches read from a partition: whole, unmodified v2 RecordBatches in offset order, contiguous as
 * they lie in one segment (base offsets rewritten at append). Empty when there is nothing to read.
 * A read_committed read also carries the aborted transactions its batches overlap, which the
 * consumer needs to drop their records.
 */
public record LogRead(KafkaError error, LogOffsets offsets, RecordsSlice records, List<AbortedTxn> abortedTransactions) {

    public LogRead(KafkaError error, LogOffsets offsets, RecordsSlice records) {
        this(error, offsets, records, List.of());
    }

    public static LogRead failed(KafkaError error, LogOffsets offsets) {
        return new LogRead(error, offsets, RecordsSlice.EMPTY);
    }

    public static LogRead empty(LogOffsets offsets) {
        return new LogRead(KafkaError.NONE, offsets, RecordsSlice.EMPTY);
    }

    public int sizeInBytes() {
        return records.sizeInBytes();
    }
}
