package io.kaas.domain.batch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A read view of the fixed 61-byte header of a magic-v2 RecordBatch, plus the in-place rewrites a
 * broker makes: base offset and partition leader epoch on every append, and the LogAppendTime
 * stamp for topics that ask for it. Records are never decoded: the header is all the broker needs,
 * and the bytes after it stay opaque.
 *
 * <p>The view reads at {@code buffer.position()} with absolute gets and never moves the position.
 */
public final class RecordBatchHeader {
    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 21;
    public static final int LAST_OFFSET_DELTA_OFFSET = 23;
    public static final int BASE_TIMESTAMP_OFFSET = 27;
    public static final int MAX_TIMESTAMP_OFFSET = 35;
    public static final int PRODUCER_ID_OFFSET = 43;
    public static final int PRODUCER_EPOCH_OFFSET = 51;
    public static final int BASE_SEQUENCE_OFFSET = 53;
    public static final int RECORDS_COUNT_OFFSET = 57;
    /** Size of the header; the records follow. */
    public static final int HEADER_SIZE = 61;
    /** Bytes before and including the length field, which the length does not count. */
    public static final int LOG_OVERHEAD = 12;
    public static final byte MAGIC_V2 = 2;
    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;

    private static final int COMPRESSION_MASK = 0x07;
    private static final int TIMESTAMP_TYPE_MASK = 0x08;
    private static final int TRANSACTIONAL_MASK = 0x10;
    private static final int CONTROL_MASK = 0x20;

    private final ByteBuffer buf;
    private final int at;

    private RecordBatchHeader(ByteBuffer buf, int at) {
        this.buf = buf;
        this.at = at;
    }

    /** A view of the batch starting at the buffer's position. */
    public static RecordBatchHeader at(ByteBuffer buffer) {
        return new RecordBatchHeader(buffer, buffer.position());
    }

    /** A view of the batch starting at an absolute index of the buffer. */
    public static RecordBatchHeader at(ByteBuffer buffer, int index) {
        return new RecordBatchHeader(buffer, index);
    }

    public long baseOffset() {
        return buf.getLong(at + BASE_OFFSET_OFFSET);
    }

    /** The length field: the batch size minus {@link #LOG_OVERHEAD}. */
    public int batchLength() {
        return buf.getInt(at + LENGTH_OFFSET);
    }

    /** Total bytes of the batch, header included. */
    public int sizeInBytes() {
        return LOG_OVERHEAD + batchLength();
    }

    public int partitionLeaderEpoch() {
        return buf.getInt(at + PARTITION_LEADER_EPOCH_OFFSET);
    }

    public byte magic() {
        return buf.get(at + MAGIC_OFFSET);
    }

    public long storedCrc() {
        return Integer.toUnsignedLong(buf.getInt(at + CRC_OFFSET));
    }

    public short attributes() {
        return buf.getShort(at + ATTRIBUTES_OFFSET);
    }

    /** Compression codec id: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd. */
    public int compressionCodec() {
        return attributes() & COMPRESSION_MASK;
    }

    public boolean isLogAppendTime() {
        return (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_MASK) != 0;
    }

    public boolean isControlBatch() {
        return (attributes() & CONTROL_MASK) != 0;
    }

    public int lastOffsetDelta() {
        return buf.getInt(at + LAST_OFFSET_DELTA_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    public long baseTimestamp() {
        return buf.getLong(at + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buf.getLong(at + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buf.getLong(at + PRODUCER_ID_OFFSET);
    }

    public boolean hasProducerId() {
        return producerId() > NO_PRODUCER_ID;
    }

    public short producerEpoch() {
        return buf.getShort(at + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buf.getInt(at + BASE_SEQUENCE_OFFSET);
    }

    /** The sequence of the batch's last record, wrapping past {@code Integer.MAX_VALUE} to 0 as Kafka does. */
    public int lastSequence() {
        return Sequences.increment(baseSequence(), lastOffsetDelta());
    }

    public int recordsCount() {
        return buf.getInt(at + RECORDS_COUNT_OFFSET);
    }

    /** CRC32C over attributes..end, the checksum the header's crc field must equal. */
    public long computeCrc() {
        CRC32C crc = new CRC32C();
        ByteBuffer covered = buf.duplicate();
        covered.limit(at + sizeInBytes()).position(at + ATTRIBUTES_OFFSET);
        crc.update(covered);
        return crc.getValue();
    }

    /** Rewrites the base offset in place; not covered by the CRC, so the batch stays valid. */
    public void setBaseOffset(long baseOffset) {
        buf.putLong(at + BASE_OFFSET_OFFSET, baseOffset);
    }

    /** Rewrites the partition leader epoch in place; not covered by the CRC either. */
    public void setPartitionLeaderEpoch(int epoch) {
        buf.putInt(at + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Stamps the batch with the broker's append time, as Apache's broker does for a topic with
     * {@code message.timestamp.type=LogAppendTime}: sets the timestamp-type attribute bit, writes
     * {@code timestamp} as the max timestamp and recomputes the CRC32C. The base timestamp and the
     * records are left alone; readers of a LogAppendTime batch take every record's timestamp from
     * the max timestamp. A batch already stamped with this time is not touched.
     */
    public void setLogAppendTime(long timestamp) {
        if (isLogAppendTime() && maxTimestamp() == timestamp) {
            return;
        }
        buf.putShort(at + ATTRIBUTES_OFFSET, (short) (attributes() | TIMESTAMP_TYPE_MASK));
        buf.putLong(at + MAX_TIMESTAMP_OFFSET, timestamp);
        buf.putInt(at + CRC_OFFSET, (int) computeCrc());
    }
}
