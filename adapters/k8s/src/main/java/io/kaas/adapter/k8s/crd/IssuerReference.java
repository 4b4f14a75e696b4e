package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A cert-manager issuer. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class IssuerReference {
    @Required
    @JsonPropertyDescription("The issuer's name.")
    private String name;

    @JsonPropertyDescription("Issuer or ClusterIssuer; unset means Issuer.")
    private String kind;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }
}
