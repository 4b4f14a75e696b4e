package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The cluster's internal listener and its external one. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterListeners {
    @JsonPropertyDescription("The in-cluster listener.")
    private InternalListener internal;

    @JsonPropertyDescription("The listener reached from outside the cluster.")
    private ExternalListener external;

    public InternalListener getInternal() {
        return internal;
    }

    public void setInternal(InternalListener internal) {
        this.internal = internal;
    }

    public ExternalListener getExternal() {
        return external;
    }

    public void setExternal(ExternalListener external) {
        this.external = external;
    }
}
