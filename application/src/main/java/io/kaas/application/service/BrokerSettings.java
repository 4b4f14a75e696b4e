package io.kaas.application.service;

/**
 * The broker-wide settings the use cases obey, parsed from the environment at startup.
 *
 * @param brokerId              this broker's node id
 * @param defaultPartitions     partitions of a topic created without a count ({@code num.partitions})
 * @param autoCreateTopics      whether Metadata may create unknown topics ({@code auto.create.topics.enable})
 * @param messageMaxBytes       largest batch a producer may append ({@code message.max.bytes})
 */
public record BrokerSettings(int brokerId, int defaultPartitions, boolean autoCreateTopics, int messageMaxBytes) {
    /** Apache's {@code message.max.bytes} default: 1 MiB plus the 12-byte log overhead. */
    public static final int DEFAULT_MESSAGE_MAX_BYTES = 1024 * 1024 + 12;
}
