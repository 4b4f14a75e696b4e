package io.kaas.domain.log;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a segment's aborted-transaction index ({@code .txnindex}, Apache's
 * {@code TransactionIndex} format: 34 bytes, version 0): the producer, the first offset of its
 * aborted transaction in the partition, the offset of the ABORT marker, and the partition's last
 * stable offset once that marker was written. A read_committed fetch returns the entries its
 * offsets overlap, so the consumer can drop the aborted records.
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    /** Bytes per entry on disk. */
    public static final int SIZE = 34;
    private static final short VERSION = 0;

    /** Writes the entry at the buffer's position. */
    public void writeTo(ByteBuffer out) {
        out.putShort(VERSION).putLong(producerId).putLong(firstOffset).putLong(lastOffset).putLong(lastStableOffset);
    }

    public ByteBuffer toBytes() {
        ByteBuffer bytes = ByteBuffer.allocate(SIZE);
        writeTo(bytes);
        return bytes.flip();
    }

    /** Whether the aborted transaction has records in {@code [fetchOffset, upperBoundOffset)}. */
    public boolean overlaps(long fetchOffset, long upperBoundOffset) {
        return lastOffset >= fetchOffset && firstOffset < upperBoundOffset;
    }

    /**
     * The whole entries of an index file; a torn last entry (a crash mid-write) and entries of an
     * unknown version end the list.
     */
    public static List<AbortedTxn> readAll(ByteBuffer in) {
        List<AbortedTxn> entries = new ArrayList<>(in.remaining() / SIZE);
        ByteBuffer view = in.duplicate();
        while (view.remaining() >= SIZE) {
            if (view.getShort() != VERSION) {
                break;
            }
            entries.add(new AbortedTxn(view.getLong(), view.getLong(), view.getLong(), view.getLong()));
        }
        return entries;
    }
}
