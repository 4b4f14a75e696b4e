package io.kaas.application.port.out;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Looks inside one stored record batch for a record by its timestamp: the one place the broker
 * decodes records (decompressing the batch if needed), for ListOffsets by timestamp, a rare request
 * answered on the I/O executor. Produce and Fetch never call it: they keep batches opaque.
 */
public interface BatchRecordSearch {

    /**
     * The first record, in offset order, of the v2 batch whose bytes are {@code batch} with a
     * timestamp at least {@code timestamp} and an offset at least {@code minOffset} (as Apache's
     * {@code FileRecords.searchForTimestamp}; records of a LogAppendTime batch carry the batch's
     * timestamp). Empty when no record qualifies.
     */
    Optional<RecordStamp> firstAtOrAfter(ByteBuffer batch, long timestamp, long minOffset);

    /** A record's offset and timestamp. */
    record RecordStamp(long offset, long timestamp) {
    }
}
