package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;

/**
 * One segment's writer-side state: its open log file, sparse index, size, next offset, newest
 * timestamp, and the transactions aborted by markers in it (its {@code .txnindex}, opened on the
 * first entry). Mutated only under the partition's append lock; readers see {@link View}s.
 */
final class Segment {
    final SegmentName name;
    final FileHandle log;
    final SegmentIndex index;
    private final int indexIntervalBytes;
    private static final long UNKNOWN = Long.MIN_VALUE;

    /** When this process created or opened the segment: its age for {@code segment.ms} when records carry no timestamps. */
    private final long createdMs;
    /**
     * Max timestamp of the first batch, the start of the segment's record time span for {@code segment.ms};
     * -1 when the records carry none, {@link #UNKNOWN} until known (a segment resumed from its index).
     */
    private long firstBatchTimestamp = UNKNOWN;
    private int size;
    private long nextOffset;
    private long maxTimestamp = -1L;
    private int bytesSinceIndexEntry;
    /** Aborted transactions whose ABORT marker lies in this segment, in marker order. */
    final AppendOnlyList<AbortedTxn> aborted = new AppendOnlyList<>();
    /** The {@code .txnindex} file holding {@link #aborted}; null until the first entry (or recovery) opens it. */
    FileHandle txnIndex;

    Segment(SegmentName name, FileHandle log, SegmentIndex index, int indexIntervalBytes, long createdMs) {
        this.name = name;
        this.log = log;
        this.index = index;
        this.indexIntervalBytes = indexIntervalBytes;
        this.createdMs = createdMs;
        this.nextOffset = name.baseOffset();
        this.maxTimestamp = index.lastMaxTimestamp();
    }

    /** Accounts for a batch now written at {@code position} (appended or found by recovery). */
    void added(int position, RecordBatchHeader batch) {
        int batchSize = batch.sizeInBytes();
        if (position == 0) {
            firstBatchTimestamp = batch.maxTimestamp();
        }
        maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        if (position > 0 && bytesSinceIndexEntry >= indexIntervalBytes && position > index.lastPosition()) {
            index.add((int) (batch.baseOffset() - name.baseOffset()), position, maxTimestamp);
            bytesSinceIndexEntry = 0;
        }
        bytesSinceIndexEntry += batchSize;
        size = position + batchSize;
        nextOffset = batch.lastOffset() + 1;
    }

    /**
     * Positions a segment whose index was loaded from disk at its last entry, so recovery can
     * re-add the batches from there on.
     */
    void resumeAtLastIndexEntry() {
        size = index.lastPosition();
        nextOffset = name.baseOffset() + index.lastRelativeOffset();
    }

    int size() {
        return size;
    }

    long nextOffset() {
        return nextOffset;
    }

    long maxTimestamp() {
        return maxTimestamp;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** For a segment resumed past its first batch: that batch's max timestamp, read by recovery. */
    void firstBatchTimestamp(long maxTimestamp) {
        firstBatchTimestamp = maxTimestamp;
    }

    /** The first batch's max timestamp; -1 when unknown or absent. */
    long firstBatchTimestamp() {
        return firstBatchTimestamp == UNKNOWN ? -1L : firstBatchTimestamp;
    }

    boolean firstBatchTimestampKnown() {
        return firstBatchTimestamp != UNKNOWN;
    }

    /**
     * Whether {@code batch} ({@code batchSize} bytes) must go to a new segment, as Apache's
     * {@code LogSegment.shouldRoll} decides: it would push the segment past {@code segment.bytes}; its
     * records lie more than {@code segment.ms} after the segment's first batch's (by record time,
     * so a producer replaying old data does not roll a segment per batch, as comparing a record
     * timestamp with the wall clock would); or, without timestamps, the segment is older than
     * {@code segment.ms}; or its offsets no longer fit the index's 32-bit relative offsets.
     */
    boolean isFull(RecordBatchHeader batch, int batchSize, int segmentBytes, long segmentMs, long nowMs) {
        if (size == 0) {
            return false;
        }
        long waited = firstBatchTimestamp >= 0 ? batch.maxTimestamp() - firstBatchTimestamp : nowMs - createdMs;
        return (long) size + batchSize > segmentBytes || waited > segmentMs
                || nextOffset + batch.lastOffsetDelta() - name.baseOffset() > Integer.MAX_VALUE;
    }

    /** Writes an aborted transaction at the end of the open {@code .txnindex} (page cache; forced with the log). */
    void addAborted(AbortedTxn entry) throws IOException {
        txnIndex.write(entry.toBytes(), (long) aborted.size() * AbortedTxn.SIZE);
        aborted.add(entry);
    }

    /** Makes the log and the transaction index durable. */
    void force() throws IOException {
        log.force();
        if (txnIndex != null) {
            txnIndex.force();
        }
    }

    void close() throws IOException {
        try {
            log.close();
        } finally {
            if (txnIndex != null) {
                txnIndex.close();
            }
        }
    }

    View view() {
        return new View(this, name.baseOffset(), nextOffset, size, index.view(), maxTimestamp, aborted.size());
    }

    /** An immutable picture of a segment for lock-free readers; {@code abortedCount} entries of its txn index. */
    record View(Segment segment, long baseOffset, long endOffset, int endPosition, SegmentIndex.View index,
                long maxTimestamp, int abortedCount) {
    }
}
