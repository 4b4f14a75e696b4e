package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Gateway API routing for the external listener. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GatewayRouting {
    @JsonPropertyDescription("Whether the operator creates the TLSRoutes.")
    private Boolean enabled;

    @JsonPropertyDescription("The Gateway to attach them to.")
    private GatewayReference gatewayRef;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public GatewayReference getGatewayRef() {
        return gatewayRef;
    }

    public void setGatewayRef(GatewayReference gatewayRef) {
        this.gatewayRef = gatewayRef;
    }
}
