package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;

/**
 * One segment's writer-side state: its open log file, sparse index, size, next offset and
 * newest timestamp. Mutated only under the partition's append lock; readers see {@link View}s.
 */
final class Segment {
    final SegmentName name;
    final FileHandle log;
    final SegmentIndex index;
    private final int indexIntervalBytes;
    /** When the segment started, for {@code segment.ms}: its first batch's max timestamp, else its creation. */
    private long rollBaseTimestamp;
    private int size;
    private long nextOffset;
    private long maxTimestamp = -1L;
    private int bytesSinceIndexEntry;

    Segment(SegmentName name, FileHandle log, SegmentIndex index, int indexIntervalBytes, long createdMs) {
        this.name = name;
        this.log = log;
        this.index = index;
        this.indexIntervalBytes = indexIntervalBytes;
        this.rollBaseTimestamp = createdMs;
        this.nextOffset = name.baseOffset();
        this.maxTimestamp = index.lastMaxTimestamp();
    }

    /** Accounts for a batch now written at {@code position} (appended or found by recovery). */
    void added(int position, RecordBatchHeader batch) {
        int batchSize = batch.sizeInBytes();
        if (size == 0 && batch.maxTimestamp() >= 0) {
            rollBaseTimestamp = batch.maxTimestamp();
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

    /** Whether a batch of {@code batchSize} bytes at {@code nowMs} must go to a new segment. */
    boolean isFull(int batchSize, int segmentBytes, long segmentMs, long nowMs) {
        if (size == 0) {
            return false;
        }
        return (long) size + batchSize > segmentBytes || nowMs - rollBaseTimestamp >= segmentMs;
    }

    View view() {
        return new View(this, name.baseOffset(), nextOffset, size, index.view(), maxTimestamp);
    }

    /** An immutable picture of a segment for lock-free readers. */
    record View(Segment segment, long baseOffset, long endOffset, int endPosition, SegmentIndex.View index,
                long maxTimestamp) {
    }
}
