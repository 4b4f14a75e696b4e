package io.kaas.domain.group;

/**
 * The group coordinator's settings, with Apache's names and defaults.
 *
 * @param minSessionTimeoutMs      {@code group.min.session.timeout.ms}: shorter sessions are refused (6000)
 * @param maxSessionTimeoutMs      {@code group.max.session.timeout.ms}: longer sessions are refused (1800000)
 * @param initialRebalanceDelayMs  {@code group.initial.rebalance.delay.ms}: how long the first rebalance
 *                                 of an empty group waits for more members, extended per arrival (3000)
 * @param offsetMetadataMaxBytes   {@code offset.metadata.max.bytes}: longest committed metadata string (4096)
 * @param offsetsRetentionMs       {@code offsets.retention.minutes}, in milliseconds: how long an empty group keeps
 *                                 its offsets (7 days; see {@link OffsetRetention})
 * @param maxSize                  {@code group.max.size}: most members a group takes; more get GROUP_MAX_SIZE_REACHED
 *                                 (unbounded)
 * @param offsetsRetentionCheckIntervalMs {@code offsets.retention.check.interval.ms}: how often expired offsets
 *                                 are looked for (600000)
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs,
                          int offsetMetadataMaxBytes, int maxSize, long offsetsRetentionMs,
                          long offsetsRetentionCheckIntervalMs) {
    public static final GroupConfig DEFAULTS = new GroupConfig(6_000, 1_800_000, 3_000, 4_096, Integer.MAX_VALUE,
            604_800_000L, 600_000L);

    /** Whether a JoinGroup's session timeout is inside the accepted range. */
    public boolean acceptsSessionTimeout(int sessionTimeoutMs) {
        return sessionTimeoutMs >= minSessionTimeoutMs && sessionTimeoutMs <= maxSessionTimeoutMs;
    }

    /** Whether a committed metadata string fits; null (no metadata) always does. */
    public boolean acceptsMetadata(String metadata) {
        return metadata == null || metadata.length() <= offsetMetadataMaxBytes;
    }
}
