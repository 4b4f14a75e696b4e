package io.kaas.adapter.fs.log;

import io.kaas.domain.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Builds magic-v2 RecordBatches as a producer sends them: a valid header and CRC32C, with the
 * records section opaque filler (the broker never decodes it). {@code recordsCount} is
 * {@code lastOffsetDelta + 1}, base offset 0 and partition leader epoch -1 until the log rewrites them.
 */
final class Batches {
    static final long NO_PRODUCER = RecordBatchHeader.NO_PRODUCER_ID;

    private Batches() {
    }

    /** A batch without a producer id. */
    static byte[] batch(int records, int fillerBytes, long maxTimestamp, Random random) {
        return batch(records, fillerBytes, maxTimestamp, NO_PRODUCER, RecordBatchHeader.NO_PRODUCER_EPOCH,
                RecordBatchHeader.NO_SEQUENCE, random);
    }

    /** A batch with {@code fillerBytes} of random record bytes (at least {@code records}, as every record takes a byte). */
    static byte[] batch(int records, int fillerBytes, long maxTimestamp, long producerId, short producerEpoch,
                        int baseSequence, Random random) {
        byte[] filler = new byte[Math.max(fillerBytes, records)];
        random.nextBytes(filler);
        return batch(records, filler, maxTimestamp, producerId, producerEpoch, baseSequence);
    }

    static byte[] batch(int records, byte[] filler, long maxTimestamp, long producerId, short producerEpoch,
                        int baseSequence) {
        if (records < 1) {
            throw new IllegalArgumentException("a batch holds at least one record");
        }
        ByteBuffer b = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE + filler.length);
        b.putLong(0L);                                                        // base offset
        b.putInt(b.capacity() - RecordBatchHeader.LOG_OVERHEAD);              // length
        b.putInt(-1);                                                         // partition leader epoch
        b.put(RecordBatchHeader.MAGIC_V2);
        b.putInt(0);                                                          // crc, below
        b.putShort((short) 0);                                                // attributes: none, CreateTime
        b.putInt(records - 1);                                                // last offset delta
        b.putLong(maxTimestamp);                                              // base timestamp
        b.putLong(maxTimestamp);                                              // max timestamp
        b.putLong(producerId);
        b.putShort(producerEpoch);
        b.putInt(baseSequence);
        b.putInt(records);                                                    // records count
        b.put(filler);
        RecordBatchHeader header = RecordBatchHeader.at(b, 0);
        b.putInt(RecordBatchHeader.CRC_OFFSET, (int) header.computeCrc());
        return b.array();
    }

    /** The bytes a log stores for {@code sent}: base offset and leader epoch rewritten, the rest verbatim. */
    static byte[] stored(byte[] sent, long baseOffset, int leaderEpoch) {
        byte[] copy = Arrays.copyOf(sent, sent.length);
        ByteBuffer b = ByteBuffer.wrap(copy);
        b.putLong(RecordBatchHeader.BASE_OFFSET_OFFSET, baseOffset);
        b.putInt(RecordBatchHeader.PARTITION_LEADER_EPOCH_OFFSET, leaderEpoch);
        return copy;
    }

    /** The header of the batch at the start of {@code bytes}. */
    static RecordBatchHeader header(byte[] bytes) {
        return RecordBatchHeader.at(ByteBuffer.wrap(bytes), 0);
    }

    /** Whether the CRC32C checks out: what the filler claims is what a consumer would verify. */
    static boolean crcValid(byte[] bytes) {
        RecordBatchHeader h = header(bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, RecordBatchHeader.ATTRIBUTES_OFFSET, bytes.length - RecordBatchHeader.ATTRIBUTES_OFFSET);
        return crc.getValue() == h.storedCrc();
    }

    /** Splits a read's bytes into whole batches. */
    static java.util.List<byte[]> split(ByteBuffer records) {
        java.util.List<byte[]> out = new java.util.ArrayList<>();
        ByteBuffer b = records.duplicate();
        while (b.remaining() >= RecordBatchHeader.LOG_OVERHEAD) {
            int size = RecordBatchHeader.at(b, b.position()).sizeInBytes();
            byte[] one = new byte[size];
            b.get(one);
            out.add(one);
        }
        if (b.hasRemaining()) {
            throw new AssertionError(b.remaining() + " bytes after the last whole batch");
        }
        return out;
    }
}
