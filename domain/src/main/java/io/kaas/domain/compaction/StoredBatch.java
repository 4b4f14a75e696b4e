package io.kaas.domain.compaction;

import java.util.OptionalLong;

/**
 * What the log cleaner needs to know of one stored v2 batch before it looks at its records: its
 * offsets, producer, whether it is transactional or a control batch (and which marker), and the
 * delete horizon an earlier cleaning stamped on it (KIP-534: the batch's base timestamp, flagged
 * in its attributes), after which its tombstones and empty-transaction markers may go.
 *
 * @param marker {@link Marker#NONE} for a data batch
 */
public record StoredBatch(long baseOffset, long lastOffset, long producerId, short producerEpoch,
                          boolean transactional, Marker marker, OptionalLong deleteHorizonMs) {

    /** The kind of control record a batch holds. */
    public enum Marker {
        /** A data batch. */
        NONE,
        COMMIT,
        ABORT,
        /** A control batch a cleaning already emptied (kept for its producer's state). */
        EMPTY,
        /** A control record of another type (leader change, snapshot...): never dropped. */
        OTHER
    }

    public boolean isControl() {
        return marker != Marker.NONE;
    }

    public boolean hasProducerId() {
        return producerId >= 0;
    }
}
