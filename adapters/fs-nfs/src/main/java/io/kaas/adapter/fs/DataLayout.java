package io.kaas.adapter.fs;

import java.nio.file.Path;

/** Where each file lives on the data volume (the book's on-disk layout). */
public record DataLayout(Path root) {
    /** Cluster-wide state, kaas's replacement for Kafka's internal topics. */
    public static final String CLUSTER_DIR = "__cluster";

    public Path clusterDir() {
        return root.resolve(CLUSTER_DIR);
    }

    public Path clusterFile() {
        return clusterDir().resolve("cluster.json");
    }

    public Path producerIdBlock(int brokerId) {
        return clusterDir().resolve("producer_ids").resolve("kaas-" + brokerId + ".json");
    }

    /** One JSON file per consumer group, named by {@link GroupFileNames}. */
    public Path consumerOffsetsDir() {
        return clusterDir().resolve("__consumer_offsets");
    }

    public Path topicDir(String topic) {
        return root.resolve(topic);
    }

    /** The topic's partition count and configuration overrides. */
    public Path topicConfig(String topic) {
        return topicDir(topic).resolve(".config.json");
    }

    /** The topic's incarnation stamp: written last on create, removed first on delete. */
    public Path topicId(String topic) {
        return topicDir(topic).resolve(".topic-id.json");
    }
}
