package io.kaas.application.log;

import java.util.Map;

/**
 * The per-partition storage settings: the broker's defaults overridden by the topic's configs
 * (Apache's topic-level keys).
 *
 * @param segmentBytes          roll the active segment before it would exceed this ({@code segment.bytes})
 * @param segmentMs             roll a segment this old ({@code segment.ms})
 * @param retentionMs           drop closed segments whose newest record is older; -1 keeps forever ({@code retention.ms})
 * @param retentionBytes        drop the oldest closed segments while the log is larger; -1 means no limit ({@code retention.bytes})
 * @param flushIntervalMessages fsync after this many appended records ({@code flush.messages}); 1 makes acks=-1 mean fsynced
 * @param indexIntervalBytes    bytes of log between sparse index entries ({@code index.interval.bytes})
 */
public record LogConfig(int segmentBytes, long segmentMs, long retentionMs, long retentionBytes,
                        long flushIntervalMessages, int indexIntervalBytes) {

    public static final LogConfig DEFAULTS = new LogConfig(1024 * 1024 * 1024, 7L * 24 * 60 * 60 * 1000,
            7L * 24 * 60 * 60 * 1000, -1L, 1L, 4096);

    /** These defaults overridden by the topic-level keys present in {@code configs}. */
    public LogConfig withOverrides(Map<String, String> configs) {
        return new LogConfig(
                (int) longOr(configs, "segment.bytes", segmentBytes),
                longOr(configs, "segment.ms", segmentMs),
                longOr(configs, "retention.ms", retentionMs),
                longOr(configs, "retention.bytes", retentionBytes),
                longOr(configs, "flush.messages", flushIntervalMessages),
                (int) longOr(configs, "index.interval.bytes", indexIntervalBytes));
    }

    public LogConfig withFlushIntervalMessages(long messages) {
        return new LogConfig(segmentBytes, segmentMs, retentionMs, retentionBytes, messages, indexIntervalBytes);
    }

    private static long longOr(Map<String, String> configs, String key, long fallback) {
        String value = configs.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return fallback; // values are validated when configs are set; a stored bad one must not stop the log
        }
    }
}
