package io.kaas.domain.batch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds magic-v2 record batches for tests: a real 61-byte header with a valid CRC32C, followed by
 * opaque filler where the records would be (the broker never decodes records). Defaults: base
 * offset 0, leader epoch -1, one record, no producer, timestamps 0, no compression.
 *
 * <p>Shared through the domain test-jar, so other modules' tests build batches the same way.
 */
public final class TestBatches {
    /** Filler bytes per record when no total size is given. */
    public static final int BYTES_PER_RECORD = 8;

    private TestBatches() {
    }

    public static Builder batch() {
        return new Builder();
    }

    /** A plain (non-idempotent) batch of {@code records} records. */
    public static ByteBuffer plain(int records) {
        return batch().records(records).build();
    }

    /** An idempotent batch of {@code records} records starting at {@code baseSequence}. */
    public static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, int records) {
        return batch().producer(producerId, epoch, baseSequence).records(records).build();
    }

    /** A batch of {@code count} records whose record section is exactly {@code records}, leader epoch 0. */
    public static ByteBuffer batch(int count, long baseTimestamp, long maxTimestamp, byte[] records) {
        return batch(count, baseTimestamp, maxTimestamp, (short) 0, records);
    }

    /** The same with the given attributes (compression bits, timestamp type, transactional, control). */
    public static ByteBuffer batch(int count, long baseTimestamp, long maxTimestamp, short attributes, byte[] records) {
        return batch().records(count).timestamps(baseTimestamp, maxTimestamp).attributes(attributes)
                .partitionLeaderEpoch(0).payload(records).build();
    }

    /** Some record bytes: opaque to every broker check. */
    public static byte[] records(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    /** Fluent settings for one batch; {@link #build()} computes the length and the CRC last. */
    public static final class Builder {
        private long baseOffset;
        private int partitionLeaderEpoch = -1;
        private byte magic = RecordBatchHeader.MAGIC_V2;
        private short attributes;
        private int lastOffsetDelta;
        private int recordsCount = 1;
        private long baseTimestamp;
        private long maxTimestamp;
        private long producerId = RecordBatchHeader.NO_PRODUCER_ID;
        private short producerEpoch = RecordBatchHeader.NO_PRODUCER_EPOCH;
        private int baseSequence = RecordBatchHeader.NO_SEQUENCE;
        private int sizeInBytes = -1;
        private byte[] payload;

        private Builder() {
        }

        public Builder baseOffset(long value) {
            baseOffset = value;
            return this;
        }

        public Builder partitionLeaderEpoch(int value) {
            partitionLeaderEpoch = value;
            return this;
        }

        public Builder magic(int value) {
            magic = (byte) value;
            return this;
        }

        /** The raw attributes field; {@link #compression}, {@link #control()} etc. set single bits. */
        public Builder attributes(int value) {
            attributes = (short) value;
            return this;
        }

        /** Compression codec id 0..4 in the low three attribute bits (the filler is not really compressed). */
        public Builder compression(int codec) {
            attributes = (short) ((attributes & ~0x07) | codec);
            return this;
        }

        public Builder control() {
            attributes = (short) (attributes | 0x20);
            return this;
        }

        public Builder transactional() {
            attributes = (short) (attributes | 0x10);
            return this;
        }

        /** A consistent record count: lastOffsetDelta = n - 1 and recordsCount = n. */
        public Builder records(int n) {
            lastOffsetDelta = n - 1;
            recordsCount = n;
            return this;
        }

        /** Overrides the records-count field alone, for inconsistent batches. */
        public Builder recordsCount(int value) {
            recordsCount = value;
            return this;
        }

        /** Overrides the last-offset-delta field alone, for inconsistent batches. */
        public Builder lastOffsetDelta(int value) {
            lastOffsetDelta = value;
            return this;
        }

        public Builder timestamps(long base, long max) {
            baseTimestamp = base;
            maxTimestamp = max;
            return this;
        }

        public Builder producer(long id, short epoch, int firstSequence) {
            producerId = id;
            producerEpoch = epoch;
            baseSequence = firstSequence;
            return this;
        }

        /** Total bytes of the batch, header included; the filler is sized to match. */
        public Builder sizeInBytes(int value) {
            if (value < RecordBatchHeader.HEADER_SIZE) {
                throw new IllegalArgumentException("a batch has at least " + RecordBatchHeader.HEADER_SIZE + " bytes");
            }
            sizeInBytes = value;
            return this;
        }

        /** The exact bytes of the record section, instead of filler; sets the size. */
        public Builder payload(byte[] records) {
            payload = records.clone();
            sizeInBytes = RecordBatchHeader.HEADER_SIZE + records.length;
            return this;
        }

        /** The batch at position 0 of a heap buffer of exactly its size. */
        public ByteBuffer build() {
            int size = sizeInBytes >= 0 ? sizeInBytes
                    : RecordBatchHeader.HEADER_SIZE + Math.max(recordsCount, 0) * BYTES_PER_RECORD;
            ByteBuffer buf = ByteBuffer.allocate(size);
            buf.putLong(baseOffset)
                    .putInt(size - RecordBatchHeader.LOG_OVERHEAD)
                    .putInt(partitionLeaderEpoch)
                    .put(magic)
                    .putInt(0) // crc, filled in below
                    .putShort(attributes)
                    .putInt(lastOffsetDelta)
                    .putLong(baseTimestamp)
                    .putLong(maxTimestamp)
                    .putLong(producerId)
                    .putShort(producerEpoch)
                    .putInt(baseSequence)
                    .putInt(recordsCount);
            if (payload != null) {
                buf.put(payload);
            }
            while (buf.hasRemaining()) {
                buf.put((byte) (buf.position() * 31));
            }
            CRC32C crc = new CRC32C();
            crc.update(buf.array(), RecordBatchHeader.ATTRIBUTES_OFFSET, size - RecordBatchHeader.ATTRIBUTES_OFFSET);
            buf.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
            return buf.flip();
        }
    }
}
