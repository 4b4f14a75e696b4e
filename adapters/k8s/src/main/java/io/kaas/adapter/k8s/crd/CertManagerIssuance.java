package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** cert-manager Certificates for the external listener. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CertManagerIssuance {
    @JsonPropertyDescription("Whether the operator requests the Certificates.")
    private Boolean enabled;

    @JsonPropertyDescription("The issuer that signs them.")
    private IssuerReference issuerRef;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public IssuerReference getIssuerRef() {
        return issuerRef;
    }

    public void setIssuerRef(IssuerReference issuerRef) {
        this.issuerRef = issuerRef;
    }
}
