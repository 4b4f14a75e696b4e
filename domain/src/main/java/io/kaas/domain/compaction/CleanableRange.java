package io.kaas.domain.compaction;

import java.util.List;
import java.util.OptionalLong;

/**
 * The part of a compacted log a cleaning may work on, and whether it is due (Apache's
 * {@code LogCleanerManager.cleanableOffsets} and {@code LogToClean}): the dirty part runs from the
 * cleaner checkpoint (or the log start) to the first uncleanable offset, which is the earliest of
 * the active segment's base offset, the first offset of a transaction still open, and the first
 * dirty segment holding a record younger than {@code min.compaction.lag.ms}. A log is due when its
 * dirty share exceeds {@code min.cleanable.dirty.ratio}, or when a dirty segment's first batch is
 * older than {@code max.compaction.lag.ms}.
 *
 * @param firstDirtyOffset       where the dirty part starts
 * @param firstUncleanableOffset where it ends (exclusive)
 * @param cleanBytes             bytes of the segments before the dirty part
 * @param dirtyBytes             bytes of the segments in it
 * @param compactionOverdue      a dirty record waited longer than {@code max.compaction.lag.ms}
 */
public record CleanableRange(long firstDirtyOffset, long firstUncleanableOffset, long cleanBytes, long dirtyBytes,
                             boolean compactionOverdue) {

    /** What the cleaner knows of a closed segment. */
    public record SegmentSummary(long baseOffset, long sizeBytes, long largestTimestamp, long firstBatchTimestamp) {
    }

    /**
     * @param closed           the closed segments the cleaner may touch, oldest first
     * @param activeBaseOffset where the first segment it may not touch starts (the active one, or one still being sealed)
     * @param logStartOffset   the log start
     * @param logEndOffset     the log end
     * @param checkpoint       where the last cleaning stopped, or -1 when the log was never cleaned
     * @param firstUnstable    the first offset of the oldest transaction still open, if any
     */
    public static CleanableRange of(List<SegmentSummary> closed, long activeBaseOffset, long logStartOffset,
                                    long logEndOffset, long checkpoint, OptionalLong firstUnstable, long nowMs,
                                    CompactionSettings settings) {
        long firstDirty = checkpoint < logStartOffset || checkpoint > logEndOffset ? logStartOffset : checkpoint;
        long firstUncleanable = activeBaseOffset;
        if (firstUnstable.isPresent()) {
            firstUncleanable = Math.min(firstUncleanable, firstUnstable.getAsLong());
        }
        long earliestDirtyBatch = Long.MAX_VALUE;
        for (int i = 0; i < closed.size(); i++) {
            SegmentSummary s = closed.get(i);
            long end = i + 1 < closed.size() ? closed.get(i + 1).baseOffset() : activeBaseOffset;
            if (end <= firstDirty) {
                continue;
            }
            if (settings.minCompactionLagMs() > 0 && s.largestTimestamp() > nowMs - settings.minCompactionLagMs()) {
                firstUncleanable = Math.min(firstUncleanable, s.baseOffset());
            }
            if (s.firstBatchTimestamp() > 0) {
                earliestDirtyBatch = Math.min(earliestDirtyBatch, s.firstBatchTimestamp());
            }
        }
        firstUncleanable = Math.max(firstUncleanable, firstDirty);
        long clean = 0;
        long dirty = 0;
        for (int i = 0; i < closed.size(); i++) {
            SegmentSummary s = closed.get(i);
            long end = i + 1 < closed.size() ? closed.get(i + 1).baseOffset() : activeBaseOffset;
            if (end <= logStartOffset) {
                continue;
            }
            if (end <= firstDirty) {
                clean += s.sizeBytes();
            } else if (s.baseOffset() < firstUncleanable) {
                dirty += s.sizeBytes();
            }
        }
        boolean overdue = earliestDirtyBatch != Long.MAX_VALUE
                && nowMs - earliestDirtyBatch > settings.maxCompactionLagMs();
        return new CleanableRange(firstDirty, firstUncleanable, clean, dirty, overdue);
    }

    /** Dirty bytes over all bytes of the cleanable segments. */
    public double dirtyRatio() {
        long total = cleanBytes + dirtyBytes;
        return total == 0 ? 0.0 : (double) dirtyBytes / total;
    }

    /** Whether a cleaning is due: something dirty, and the ratio exceeded or a record waited too long. */
    public boolean due(CompactionSettings settings) {
        return dirtyBytes > 0 && (compactionOverdue || dirtyRatio() > settings.minCleanableDirtyRatio());
    }
}
