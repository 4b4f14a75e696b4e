package io.kaas.domain.batch;

import java.nio.ByteBuffer;

/**
 * Magic-v2 record batches built by hand for tests that must not depend on kafka-clients: a real
 * header with a valid CRC32C over opaque "record" bytes (the broker never looks inside them).
 */
public final class TestBatches {
    private TestBatches() {
    }

    /** A batch of {@code count} records at base offset 0 with no producer id, CreateTime, uncompressed. */
    public static ByteBuffer batch(int count, long baseTimestamp, long maxTimestamp, byte[] records) {
        return batch(count, baseTimestamp, maxTimestamp, (short) 0, records);
    }

    /** A batch with the given attributes (compression bits, timestamp type, transactional, control). */
    public static ByteBuffer batch(int count, long baseTimestamp, long maxTimestamp, short attributes, byte[] records) {
        int size = RecordBatchHeader.HEADER_SIZE + records.length;
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.putLong(0L)                                            // base offset
                .putInt(size - RecordBatchHeader.LOG_OVERHEAD)     // length
                .putInt(0)                                         // partition leader epoch
                .put(RecordBatchHeader.MAGIC_V2)
                .putInt(0)                                         // crc, below
                .putShort(attributes)
                .putInt(count - 1)                                 // last offset delta
                .putLong(baseTimestamp)
                .putLong(maxTimestamp)
                .putLong(RecordBatchHeader.NO_PRODUCER_ID)
                .putShort(RecordBatchHeader.NO_PRODUCER_EPOCH)
                .putInt(RecordBatchHeader.NO_SEQUENCE)
                .putInt(count)
                .put(records)
                .flip();
        RecordBatchHeader header = RecordBatchHeader.at(buf);
        buf.putInt(RecordBatchHeader.CRC_OFFSET, (int) header.computeCrc());
        return buf;
    }

    /** Some record bytes: opaque to every broker check. */
    public static byte[] records(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
