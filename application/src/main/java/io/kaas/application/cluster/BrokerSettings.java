package io.kaas.application.cluster;

/**
 * The broker-wide settings the use cases obey, parsed from the environment at startup.
 *
 * @param brokerId              this broker's node id
 * @param defaultPartitions     partitions of a topic created without a count ({@code num.partitions})
 * @param autoCreateTopics      whether Metadata may create unknown topics ({@code auto.create.topics.enable})
 * @param maxPartitionsPerTopic most partitions one topic may have ({@code KAAS_MAX_PARTITIONS_PER_TOPIC}); creating or
 *                              growing beyond it is a POLICY_VIOLATION
 */
public record BrokerSettings(int brokerId, int defaultPartitions, boolean autoCreateTopics, int maxPartitionsPerTopic) {
    /**
     * Apache's {@code message.max.bytes} default: 1 MiB plus the 12-byte log overhead. The setting
     * reaches the produce path as the default of each topic's {@code max.message.bytes} (BrokerConfigs).
     */
    public static final int DEFAULT_MESSAGE_MAX_BYTES = 1024 * 1024 + 12;
    /**
     * The default partition limit: the most partitions Apache's controller creates in one operation
     * (a larger one fails with POLICY_VIOLATION there too).
     */
    public static final int DEFAULT_MAX_PARTITIONS_PER_TOPIC = 10_000;

    public BrokerSettings {
        if (maxPartitionsPerTopic < 1) {
            throw new IllegalArgumentException("maxPartitionsPerTopic must be positive: " + maxPartitionsPerTopic);
        }
    }

    /** Settings with the default partition limit. */
    public BrokerSettings(int brokerId, int defaultPartitions, boolean autoCreateTopics) {
        this(brokerId, defaultPartitions, autoCreateTopics, DEFAULT_MAX_PARTITIONS_PER_TOPIC);
    }
}
