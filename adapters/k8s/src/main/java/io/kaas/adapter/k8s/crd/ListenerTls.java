package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The external listener's certificates. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ListenerTls {
    @JsonPropertyDescription("Certificates issued by cert-manager.")
    private CertManagerIssuance certManager;

    public CertManagerIssuance getCertManager() {
        return certManager;
    }

    public void setCertManager(CertManagerIssuance certManager) {
        this.certManager = certManager;
    }
}
