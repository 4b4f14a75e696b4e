package io.kaas.application.log;

/**
 * A consistent snapshot of a partition's offsets, published after every append so readers never
 * take the append lock.
 *
 * @param logStartOffset first offset still in the log
 * @param highWatermark  first offset consumers may not read yet (= log end: there are no followers)
 * @param logEndOffset   the offset the next appended record gets
 */
public record LogOffsets(long logStartOffset, long highWatermark, long logEndOffset) {
    public static final LogOffsets EMPTY = new LogOffsets(0, 0, 0);
}
