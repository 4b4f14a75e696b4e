package io.kaas.application.log;

import io.kaas.domain.compaction.CompactionSettings;
import io.kaas.domain.config.TopicConfig;

/**
 * The per-partition storage settings, taken from the topic's effective configuration (its
 * overrides over the broker's defaults, Apache's topic-level keys).
 *
 * @param segmentBytes          roll the active segment before it would exceed this ({@code segment.bytes})
 * @param segmentMs             roll a segment this old ({@code segment.ms})
 * @param retentionMs           drop closed segments whose newest record is older; -1 keeps forever ({@code retention.ms})
 * @param retentionBytes        drop the oldest closed segments while the log is larger; -1 means no limit ({@code retention.bytes})
 * @param flushIntervalMessages fsync after this many appended records ({@code flush.messages}); 1 makes acks=-1 mean fsynced
 * @param flushIntervalMs       fsync on an append when the last fsync request is this old ({@code flush.ms})
 * @param indexIntervalBytes    bytes of log between sparse index entries ({@code index.interval.bytes})
 * @param deleteRetention       whether retention deletes at all ({@code cleanup.policy} includes delete)
 * @param fileDeleteDelayMs     how long a removed segment's handle stays open for reads in flight ({@code file.delete.delay.ms})
 * @param compact               whether the log cleaner compacts the log ({@code cleanup.policy} includes compact)
 * @param compaction            the cleaner's settings ({@code min.cleanable.dirty.ratio}, the compaction lags, {@code delete.retention.ms})
 */
public record LogConfig(int segmentBytes, long segmentMs, long retentionMs, long retentionBytes,
                        long flushIntervalMessages, long flushIntervalMs, int indexIntervalBytes,
                        boolean deleteRetention, long fileDeleteDelayMs, boolean compact,
                        CompactionSettings compaction) {

    /** A log that is never compacted. */
    public LogConfig(int segmentBytes, long segmentMs, long retentionMs, long retentionBytes,
                     long flushIntervalMessages, long flushIntervalMs, int indexIntervalBytes,
                     boolean deleteRetention, long fileDeleteDelayMs) {
        this(segmentBytes, segmentMs, retentionMs, retentionBytes, flushIntervalMessages, flushIntervalMs,
                indexIntervalBytes, deleteRetention, fileDeleteDelayMs, false, CompactionSettings.DEFAULTS);
    }

    /** Apache's defaults, except {@code flush.messages}: kaas fsyncs every append unless told otherwise. */
    public static final LogConfig DEFAULTS = new LogConfig(1024 * 1024 * 1024, 7L * 24 * 60 * 60 * 1000,
            7L * 24 * 60 * 60 * 1000, -1L, 1L, Long.MAX_VALUE, 4096, true, 60_000L);

    /** The storage settings of a topic's effective configuration. */
    public static LogConfig of(TopicConfig config) {
        return new LogConfig(config.segmentBytes(), config.segmentMs(), config.retentionMs(), config.retentionBytes(),
                config.flushMessages(), config.flushMs(), config.indexIntervalBytes(), config.deleteRetention(),
                config.fileDeleteDelayMs(), config.compact(), config.compaction());
    }
}
