package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A Gateway API Gateway. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GatewayReference {
    @Required
    @JsonPropertyDescription("The Gateway's name.")
    private String name;

    @JsonPropertyDescription("Its namespace; unset means the KafkaCluster's.")
    private String namespace;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }
}
