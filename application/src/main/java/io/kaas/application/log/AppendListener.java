package io.kaas.application.log;

import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;

/**
 * Told after every append (records or a transaction marker) once it is published, outside the
 * partition lock, on the appending thread: what changed, so parked fetches can tell whether they
 * have enough without reading the log. Must not block or do file work.
 */
@FunctionalInterface
public interface AppendListener {
    void onAppend(Append append);

    /**
     * One published append.
     *
     * @param partition   the partition appended to
     * @param baseOffset  the appended batch's first offset
     * @param sizeInBytes the bytes the batch added to the log
     * @param offsets     the offsets the append published: its end is their log end offset (= high
     *                    watermark); a marker may have moved the last stable offset over bytes
     *                    appended earlier
     */
    record Append(TopicPartition partition, long baseOffset, int sizeInBytes, LogOffsets offsets) {
        /** The offset after the appended batch. */
        public long endOffset() {
            return offsets.logEndOffset();
        }
    }
}
