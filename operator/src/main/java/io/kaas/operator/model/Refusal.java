package io.kaas.operator.model;

import java.util.Objects;

/**
 * Why a resource cannot be materialised as it stands: reported as Ready=False with this reason and message, while
 * nothing on the volume changes.
 *
 * @param reason  one CamelCase word, the condition's reason
 * @param message what was rejected, for a person
 */
public record Refusal(String reason, String message) {
    public static final String INVALID_TOPIC_NAME = "InvalidTopicName";
    public static final String INVALID_PARTITIONS = "InvalidPartitions";
    public static final String INVALID_CONFIG = "InvalidConfig";
    public static final String INVALID_VOLUME_BINDING = "InvalidVolumeBinding";
    public static final String PARTITION_DECREASE_REFUSED = "PartitionDecreaseRefused";
    public static final String TOPIC_NAME_CONFLICT = "TopicNameConflict";

    public Refusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }
}
