package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Min;

/**
 * What a {@link KafkaCluster} declares: the external access path the operator builds, and, for
 * reading, the broker count and storage Helm deployed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KafkaClusterSpec {
    @PrinterColumn(name = "Replicas")
    @Min(0)
    @JsonPropertyDescription("Broker count of the release (Helm owns the StatefulSet; the operator does not scale "
            + "it).")
    private Integer replicas;

    @JsonPropertyDescription("The shared data volume Helm provisioned.")
    private ClusterStorage storage;

    @JsonPropertyDescription("The internal listener and the external access path.")
    private ClusterListeners listeners;

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public ClusterStorage getStorage() {
        return storage;
    }

    public void setStorage(ClusterStorage storage) {
        this.storage = storage;
    }

    public ClusterListeners getListeners() {
        return listeners;
    }

    public void setListeners(ClusterListeners listeners) {
        this.listeners = listeners;
    }
}
