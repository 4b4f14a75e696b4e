package io.kaas.adapter.fs;

import java.nio.file.Path;

/** Where each file lives on the data volume (the book's on-disk layout). */
public record DataLayout(Path root) {
    /** Cluster-wide state, kaas's replacement for Kafka's internal topics. */
    public static final String CLUSTER_DIR = "__cluster";

    public Path clusterDir() {
        return root.resolve(CLUSTER_DIR);
    }

    /** The standalone broker's log journal ({@code KAAS_LOG_JOURNAL}): its write-ahead files. */
    public Path journalDir() {
        return clusterDir().resolve("journal");
    }

    public Path clusterFile() {
        return clusterDir().resolve("cluster.json");
    }

    /** Who leads what: written by the controller, read by every broker. */
    public Path assignmentFile() {
        return clusterDir().resolve("assignment.json");
    }

    /** Every user's SCRAM credentials and quotas: written by the operator (or the admin APIs in standalone). */
    public Path credentialsFile() {
        return clusterDir().resolve("credentials.json");
    }

    /** Every ACL of the cluster: written by the operator (or the admin APIs in standalone). */
    public Path aclsFile() {
        return clusterDir().resolve("acls.json");
    }

    /** The quotas of client ids, default entities and (user, client-id) pairs: written by the admin APIs (standalone). */
    public Path clientQuotasFile() {
        return clusterDir().resolve("client-quotas.json");
    }

    /** The dynamic broker configs set through the admin APIs (standalone). */
    public Path brokerConfigsFile() {
        return clusterDir().resolve("broker-configs.json");
    }

    public Path producerIdBlock(int brokerId) {
        return clusterDir().resolve("producer_ids").resolve("kaas-" + brokerId + ".json");
    }

    /** One JSON file per consumer group, named by {@link GroupFileNames}. */
    public Path consumerOffsetsDir() {
        return clusterDir().resolve("__consumer_offsets");
    }

    /** The transaction coordinators' state: {@code slot-N.json} for each of the 50 slots. */
    public Path txnSlot(int slot) {
        return clusterDir().resolve("txn_state").resolve("slot-" + slot + ".json");
    }

    /** The epoch bumps broker {@code brokerId}'s coordinator handed out, for its peers to fence. */
    public Path producerFences(int brokerId) {
        return clusterDir().resolve("producer_fences").resolve("from-" + brokerId + ".json");
    }

    /** Markers queued for broker {@code brokerId}'s partitions, one file per producer and epoch. */
    public Path markerQueue(int brokerId) {
        return clusterDir().resolve("marker_queue").resolve("to-" + brokerId);
    }

    public Path topicDir(String topic) {
        return root.resolve(topic);
    }

    /** A partition's directory: its log segments and state files (the storage engine's {@code PartitionFiles}). */
    public Path partitionDir(String topic, int partition) {
        return topicDir(topic).resolve(Integer.toString(partition));
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
