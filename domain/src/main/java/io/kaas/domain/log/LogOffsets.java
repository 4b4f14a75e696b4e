package io.kaas.domain.log;

/**
 * A consistent snapshot of a partition's offsets, published after every append so readers never
 * take the append lock.
 *
 * @param logStartOffset   first offset still in the log
 * @param highWatermark    first offset consumers may not read yet (= log end: there are no followers)
 * @param logEndOffset     the offset the next appended record gets
 * @param lastStableOffset first offset read_committed consumers may not read yet: the first offset of
 *                         the oldest transaction still in progress, else the high watermark
 */
public record LogOffsets(long logStartOffset, long highWatermark, long logEndOffset, long lastStableOffset) {
    public static final LogOffsets EMPTY = new LogOffsets(0, 0, 0);

    /** Offsets of a log with no transaction in progress: the last stable offset is the high watermark. */
    public LogOffsets(long logStartOffset, long highWatermark, long logEndOffset) {
        this(logStartOffset, highWatermark, logEndOffset, highWatermark);
    }
}
