package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A key of a Secret in the same namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyReference {
    @Required
    @JsonPropertyDescription("The Secret's name.")
    private String name;

    @Required
    @JsonPropertyDescription("The key within the Secret.")
    private String key;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
