package io.kaas.domain.batch;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The COMMIT and ABORT markers a transaction leaves in each of its partitions: a magic-v2 control
 * batch (transactional and control attribute bits set, no sequence) holding one uncompressed
 * control record whose key is {@code (version 0, type)} and whose value is
 * {@code (version 0, coordinator epoch)} - the bytes kafka-clients' {@code EndTransactionMarker}
 * writes.
 *
 * <p>This is the one batch the broker builds itself, and the one record it reads back (recovery and
 * the aborted-transaction index need the marker's type); every other batch stays opaque.
 */
public final class ControlBatch {
    /** The control record key version and the marker value version Kafka 3.7 writes. */
    private static final short VERSION = 0;
    private static final int KEY_SIZE = 4;
    private static final int VALUE_SIZE = 6;
    private static final short ATTRIBUTES = 0x10 | 0x20; // transactional | control, CreateTime, no compression

    private ControlBatch() {
    }

    /** The control record types a transaction marker can have, with Kafka's ids. */
    public enum Type {
        ABORT(0), COMMIT(1);

        private final short id;

        Type(int id) {
            this.id = (short) id;
        }

        public short id() {
            return id;
        }

        static Optional<Type> forId(short id) {
            for (Type t : values()) {
                if (t.id == id) {
                    return Optional.of(t);
                }
            }
            return Optional.empty();
        }
    }

    /** What a marker says: how the transaction ended, and the epoch of the coordinator that decided it. */
    public record Marker(Type type, int coordinatorEpoch) {
        public boolean isCommit() {
            return type == Type.COMMIT;
        }
    }

    /**
     * A marker batch at offset 0, leader epoch -1 (the log stamps both on append), every timestamp
     * {@code timestamp}: byte for byte what kafka-clients' {@code MemoryRecords.withEndTransactionMarker} builds.
     */
    public static ByteBuffer encode(long producerId, short producerEpoch, int coordinatorEpoch, Type type, long timestamp) {
        ByteBuffer record = ByteBuffer.allocate(32);
        record.put((byte) 0); // record attributes
        Varints.writeVarlong(0, record); // timestamp delta
        Varints.writeVarint(0, record); // offset delta
        Varints.writeVarint(KEY_SIZE, record);
        record.putShort(VERSION).putShort(type.id());
        Varints.writeVarint(VALUE_SIZE, record);
        record.putShort(VERSION).putInt(coordinatorEpoch);
        Varints.writeVarint(0, record); // no headers
        record.flip();
        int bodySize = record.remaining();
        int recordSize = Varints.sizeOfVarint(bodySize) + bodySize;
        int size = RecordBatchHeader.HEADER_SIZE + recordSize;
        ByteBuffer batch = ByteBuffer.allocate(size);
        batch.putLong(0L)
                .putInt(size - RecordBatchHeader.LOG_OVERHEAD)
                .putInt(-1)
                .put(RecordBatchHeader.MAGIC_V2)
                .putInt(0) // crc, below
                .putShort(ATTRIBUTES)
                .putInt(0) // last offset delta
                .putLong(timestamp)
                .putLong(timestamp)
                .putLong(producerId)
                .putShort(producerEpoch)
                .putInt(RecordBatchHeader.NO_SEQUENCE)
                .putInt(1);
        Varints.writeVarint(bodySize, batch);
        batch.put(record);
        CRC32C crc = new CRC32C();
        crc.update(batch.array(), RecordBatchHeader.ATTRIBUTES_OFFSET, size - RecordBatchHeader.ATTRIBUTES_OFFSET);
        batch.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return batch.flip();
    }

    /**
     * Reads the marker of the control batch at the buffer's position (whole batch present);
     * empty when it is not an uncompressed control batch with one transaction-marker record (an
     * empty control batch, as Apache's cleaner may leave, or a record type this version does not know).
     */
    public static Optional<Marker> decode(ByteBuffer buffer) {
        RecordBatchHeader header = RecordBatchHeader.at(buffer);
        if (!header.isControlBatch() || header.compressionCodec() != 0 || header.recordsCount() != 1) {
            return Optional.empty();
        }
        ByteBuffer in = buffer.duplicate();
        in.position(buffer.position() + RecordBatchHeader.HEADER_SIZE)
                .limit(buffer.position() + header.sizeInBytes());
        try {
            Varints.readVarint(in); // record size
            in.get(); // attributes
            Varints.readVarlong(in); // timestamp delta
            Varints.readVarint(in); // offset delta
            if (Varints.readVarint(in) < KEY_SIZE) {
                return Optional.empty();
            }
            in.getShort(); // key version
            Optional<Type> type = Type.forId(in.getShort());
            if (type.isEmpty() || Varints.readVarint(in) < VALUE_SIZE) {
                return Optional.empty();
            }
            in.getShort(); // value version
            return Optional.of(new Marker(type.get(), in.getInt()));
        } catch (RuntimeException e) { // BufferUnderflowException, or a malformed varint
            return Optional.empty();
        }
    }

    /** Kafka's zig-zag varints, only as far as the control record needs them. */
    static final class Varints {
        private Varints() {
        }

        static void writeVarint(int value, ByteBuffer out) {
            writeUnsigned((value << 1) ^ (value >> 31), out);
        }

        static void writeVarlong(long value, ByteBuffer out) {
            long v = (value << 1) ^ (value >> 63);
            while ((v & ~0x7FL) != 0) {
                out.put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.put((byte) v);
        }

        static int sizeOfVarint(int value) {
            int v = (value << 1) ^ (value >> 31);
            int bytes = 1;
            while ((v & ~0x7F) != 0) {
                bytes++;
                v >>>= 7;
            }
            return bytes;
        }

        static int readVarint(ByteBuffer in) {
            int raw = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                byte b = in.get();
                raw |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new IllegalArgumentException("varint too long");
        }

        static long readVarlong(ByteBuffer in) {
            long raw = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                byte b = in.get();
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new IllegalArgumentException("varlong too long");
        }

        private static void writeUnsigned(int v, ByteBuffer out) {
            while ((v & ~0x7F) != 0) {
                out.put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.put((byte) v);
        }
    }
}
