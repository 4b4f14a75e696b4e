package io.kaas.adapter.fs.broker;

import io.kaas.domain.batch.ControlBatch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The simulation's batches: valid v2 batches ({@link TestBatches}) whose record section starts with
 * the batch's unique id, so the checker can tell every batch it reads back apart. Only the test
 * looks into the record section; the broker treats it as opaque bytes.
 */
final class Payloads {
    private Payloads() {
    }

    /** A batch of {@code records} records carrying {@code id}; {@code producerId} -1 for none. */
    static byte[] batch(long id, int records, long timestamp, long producerId, short epoch, int baseSequence,
                        boolean transactional, int fillerBytes, Random random) {
        byte[] payload = new byte[Long.BYTES + Math.max(fillerBytes, records)];
        random.nextBytes(payload);
        ByteBuffer.wrap(payload).putLong(0, id);
        TestBatches.Builder builder = TestBatches.batch().records(records).timestamps(timestamp, timestamp).payload(payload);
        if (producerId >= 0) {
            builder.producer(producerId, epoch, baseSequence);
        }
        if (transactional) {
            builder.transactional();
        }
        ByteBuffer built = builder.build();
        byte[] bytes = new byte[built.remaining()];
        built.get(bytes);
        return bytes;
    }

    /** One batch read back from a log. */
    record ReadBatch(RecordBatchHeader header, long id, Optional<ControlBatch.Marker> marker) {
        boolean isControl() {
            return header.isControlBatch();
        }
    }

    /** Splits a read's bytes into whole batches; fails on bytes after the last whole batch. */
    static List<ReadBatch> split(ByteBuffer records) {
        List<ReadBatch> out = new ArrayList<>();
        ByteBuffer b = records.duplicate();
        while (b.remaining() >= RecordBatchHeader.LOG_OVERHEAD) {
            int start = b.position();
            RecordBatchHeader header = RecordBatchHeader.at(b, start);
            int size = header.sizeInBytes();
            if (size > b.remaining() || size < RecordBatchHeader.HEADER_SIZE) {
                throw new AssertionError("a batch of " + size + " bytes at " + start + " of a read of " + b.limit());
            }
            ByteBuffer one = ByteBuffer.allocate(size);
            one.put(b.duplicate().limit(start + size)).flip();
            b.position(start + size);
            RecordBatchHeader own = RecordBatchHeader.at(one, 0);
            if (own.computeCrc() != own.storedCrc()) {
                throw new AssertionError("the batch at offset " + own.baseOffset() + " fails its CRC");
            }
            if (own.isControlBatch()) {
                out.add(new ReadBatch(own, -1L, ControlBatch.decode(one.duplicate())));
            } else {
                out.add(new ReadBatch(own, one.getLong(RecordBatchHeader.HEADER_SIZE), Optional.empty()));
            }
        }
        if (b.hasRemaining()) {
            throw new AssertionError(b.remaining() + " bytes after the last whole batch");
        }
        return out;
    }
}
