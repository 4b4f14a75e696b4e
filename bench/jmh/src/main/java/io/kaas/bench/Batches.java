package io.kaas.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;

/** Record batches for the benchmarks, built by kafka-clients as a producer would. */
final class Batches {
    private Batches() {
    }

    /** One uncompressed batch of {@code records} values of {@code valueBytes} each, without a producer id. */
    static ByteBuffer plain(int records, int valueBytes) {
        return MemoryRecords.withRecords(CompressionType.NONE, values(records, valueBytes)).buffer();
    }

    /** One idempotent batch. */
    static ByteBuffer idempotent(long producerId, int baseSequence, int records, int valueBytes) {
        return MemoryRecords.withIdempotentRecords(CompressionType.NONE, producerId, (short) 0, baseSequence,
                values(records, valueBytes)).buffer();
    }

    private static SimpleRecord[] values(int records, int valueBytes) {
        SimpleRecord[] out = new SimpleRecord[records];
        byte[] value = new byte[valueBytes];
        Arrays.fill(value, (byte) 'x');
        long now = System.currentTimeMillis();
        for (int i = 0; i < records; i++) {
            out[i] = new SimpleRecord(now, null, value);
        }
        return out;
    }
}
