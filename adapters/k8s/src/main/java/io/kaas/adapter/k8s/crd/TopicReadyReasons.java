package io.kaas.adapter.k8s.crd;

/**
 * The reasons a {@link KafkaTopic}'s Ready condition gives: the operator writes them, brokers read them to answer the
 * admin APIs with Kafka's error for a refusal.
 */
public final class TopicReadyReasons {
    /** Ready: the volume holds what the spec declares. */
    public static final String MATERIALIZED = "Materialized";
    /** Not ready, and retried: writing to the volume or the API server failed. */
    public static final String MATERIALIZE_FAILED = "MaterializeFailed";
    public static final String INVALID_TOPIC_NAME = "InvalidTopicName";
    public static final String INVALID_PARTITIONS = "InvalidPartitions";
    public static final String INVALID_CONFIG = "InvalidConfig";
    public static final String INVALID_VOLUME_BINDING = "InvalidVolumeBinding";
    public static final String PARTITION_DECREASE_REFUSED = "PartitionDecreaseRefused";
    public static final String TOPIC_NAME_CONFLICT = "TopicNameConflict";

    private TopicReadyReasons() {
    }
}
