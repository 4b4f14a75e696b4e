package io.kaas.domain.config;

import io.kaas.domain.compaction.CompactionSettings;
import io.kaas.domain.error.KafkaException;
import java.util.List;
import java.util.Map;

/**
 * A topic's effective configuration: its overrides over the broker's topic defaults, with the keys
 * kaas acts on parsed. An override that does not parse (only possible if stored files were edited
 * by hand: values are validated when set) counts as absent.
 */
public final class TopicConfig {
    /** Whether records keep the producer's timestamps or get the broker's. */
    public enum TimestampType { CREATE_TIME, LOG_APPEND_TIME }

    private final Map<String, String> defaults;
    private final Map<String, String> overrides;
    private final int segmentBytes;
    private final long segmentMs;
    private final long retentionMs;
    private final long retentionBytes;
    private final long flushMessages;
    private final long flushMs;
    private final int maxMessageBytes;
    private final int indexIntervalBytes;
    private final long fileDeleteDelayMs;
    private final boolean deleteRetention;
    private final boolean compact;
    private final CompactionSettings compaction;
    private final TimestampType timestampType;
    private final long timestampBeforeMaxMs;
    private final long timestampAfterMaxMs;

    private TopicConfig(Map<String, String> defaults, Map<String, String> overrides) {
        this.defaults = defaults;
        this.overrides = Map.copyOf(overrides);
        segmentBytes = (Integer) typed(TopicConfigKeys.SEGMENT_BYTES);
        segmentMs = (Long) typed(TopicConfigKeys.SEGMENT_MS);
        retentionMs = (Long) typed(TopicConfigKeys.RETENTION_MS);
        retentionBytes = (Long) typed(TopicConfigKeys.RETENTION_BYTES);
        flushMessages = (Long) typed(TopicConfigKeys.FLUSH_MESSAGES);
        flushMs = (Long) typed(TopicConfigKeys.FLUSH_MS);
        maxMessageBytes = (Integer) typed(TopicConfigKeys.MAX_MESSAGE_BYTES);
        indexIntervalBytes = (Integer) typed(TopicConfigKeys.INDEX_INTERVAL_BYTES);
        fileDeleteDelayMs = (Long) typed(TopicConfigKeys.FILE_DELETE_DELAY_MS);
        deleteRetention = ((List<?>) typed(TopicConfigKeys.CLEANUP_POLICY)).stream()
                .anyMatch(p -> ConfigValues.lower(p.toString()).equals(TopicConfigKeys.DELETE));
        compact = ((List<?>) typed(TopicConfigKeys.CLEANUP_POLICY)).stream()
                .anyMatch(p -> ConfigValues.lower(p.toString()).equals(TopicConfigKeys.COMPACT));
        compaction = new CompactionSettings((Double) typed(TopicConfigKeys.MIN_CLEANABLE_DIRTY_RATIO),
                (Long) typed(TopicConfigKeys.MIN_COMPACTION_LAG_MS), (Long) typed(TopicConfigKeys.MAX_COMPACTION_LAG_MS),
                (Long) typed(TopicConfigKeys.DELETE_RETENTION_MS));
        timestampType = TopicConfigKeys.LOG_APPEND_TIME.equals(typed(TopicConfigKeys.MESSAGE_TIMESTAMP_TYPE))
                ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
        // The deprecated difference limit stands in for whichever of the two is left at Long.MAX_VALUE, as in Apache.
        long difference = (Long) typed(TopicConfigKeys.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS);
        long before = (Long) typed(TopicConfigKeys.MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
        long after = (Long) typed(TopicConfigKeys.MESSAGE_TIMESTAMP_AFTER_MAX_MS);
        timestampBeforeMaxMs = before != Long.MAX_VALUE ? before : difference;
        timestampAfterMaxMs = after != Long.MAX_VALUE ? after : difference;
    }

    /**
     * @param defaults  the broker's default for every topic key ({@link BrokerConfigs#topicDefaults()})
     * @param overrides the topic's own settings
     */
    public static TopicConfig resolve(Map<String, String> defaults, Map<String, String> overrides) {
        return new TopicConfig(defaults, overrides);
    }

    private Object typed(String name) {
        TopicConfigKey key = TopicConfigKeys.require(name);
        String override = overrides.get(name);
        if (override != null) {
            try {
                return key.parse(override);
            } catch (KafkaException unparseable) {
                // fall through to the default
            }
        }
        return key.parse(defaultOf(key));
    }

    private String defaultOf(TopicConfigKey key) {
        return defaults.getOrDefault(key.name(), key.defaultValue());
    }

    /** The topic's own settings, as stored. */
    public Map<String, String> overrides() {
        return overrides;
    }

    /** Whether the topic overrides {@code key} (with a usable value). */
    public boolean isOverridden(String key) {
        String override = overrides.get(key);
        if (override == null) {
            return false;
        }
        try {
            TopicConfigKeys.require(key).parse(override);
            return true;
        } catch (KafkaException unparseable) {
            return false;
        }
    }

    /** The effective value of a key in canonical text, as DescribeConfigs reports it. */
    public String value(String key) {
        TopicConfigKey k = TopicConfigKeys.require(key);
        return ConfigValues.format(isOverridden(key) ? k.parse(overrides.get(key)) : k.parse(defaultOf(k)));
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    public long segmentMs() {
        return segmentMs;
    }

    public long retentionMs() {
        return retentionMs;
    }

    public long retentionBytes() {
        return retentionBytes;
    }

    public long flushMessages() {
        return flushMessages;
    }

    public long flushMs() {
        return flushMs;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    public long fileDeleteDelayMs() {
        return fileDeleteDelayMs;
    }

    /** Whether {@code cleanup.policy} includes delete, so retention removes old segments. */
    public boolean deleteRetention() {
        return deleteRetention;
    }

    /** Whether {@code cleanup.policy} includes compact, so the log cleaner keeps the latest record of each key. */
    public boolean compact() {
        return compact;
    }

    /** The log cleaner's settings for this topic. */
    public CompactionSettings compaction() {
        return compaction;
    }

    public TimestampType timestampType() {
        return timestampType;
    }

    /** How far before the broker's clock a CreateTime timestamp may be. */
    public long timestampBeforeMaxMs() {
        return timestampBeforeMaxMs;
    }

    /** How far after the broker's clock a CreateTime timestamp may be. */
    public long timestampAfterMaxMs() {
        return timestampAfterMaxMs;
    }
}
