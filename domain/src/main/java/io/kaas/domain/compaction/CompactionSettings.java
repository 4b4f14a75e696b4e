package io.kaas.domain.compaction;

/**
 * A compacted topic's cleaning settings (Apache's topic-level keys).
 *
 * @param minCleanableDirtyRatio {@code min.cleanable.dirty.ratio}: clean once this share of the log is dirty
 * @param minCompactionLagMs     {@code min.compaction.lag.ms}: a segment with a record younger than this stays dirty
 * @param maxCompactionLagMs     {@code max.compaction.lag.ms}: a dirty segment older than this is cleaned whatever the ratio
 * @param deleteRetentionMs      {@code delete.retention.ms}: how long a cleaned tombstone or empty marker stays
 */
public record CompactionSettings(double minCleanableDirtyRatio, long minCompactionLagMs, long maxCompactionLagMs,
                                 long deleteRetentionMs) {

    /** Apache's defaults. */
    public static final CompactionSettings DEFAULTS = new CompactionSettings(0.5, 0L, Long.MAX_VALUE,
            24L * 60 * 60 * 1000);
}
