package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;

/**
 * Batches read from a partition: whole, unmodified v2 RecordBatches in offset order, contiguous as
 * they lie in one segment (base offsets rewritten at append). Empty when there is nothing to read.
 */
public record LogRead(KafkaError error, LogOffsets offsets, ByteBuffer records) {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0).asReadOnlyBuffer();

    public static LogRead failed(KafkaError error, LogOffsets offsets) {
        return new LogRead(error, offsets, NOTHING);
    }

    public static LogRead empty(LogOffsets offsets) {
        return new LogRead(KafkaError.NONE, offsets, NOTHING);
    }

    public int sizeInBytes() {
        return records.remaining();
    }
}
