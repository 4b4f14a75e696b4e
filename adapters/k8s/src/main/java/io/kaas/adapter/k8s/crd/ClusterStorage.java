package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The shared ReadWriteMany data volume. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterStorage {
    @JsonPropertyDescription("StorageClass of the data volume.")
    private String className;

    @JsonPropertyDescription("Requested size, e.g. 50Gi.")
    private String size;

    public String getClassName() {
        return className;
    }

    public void setClassName(String className) {
        this.className = className;
    }

    public String getSize() {
        return size;
    }

    public void setSize(String size) {
        this.size = size;
    }
}
