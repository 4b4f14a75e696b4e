package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** Where a user's password comes from: {@code valueFrom.secretKeyRef}, as in Strimzi. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PasswordSource {
    @Required
    @JsonPropertyDescription("The password's source.")
    private PasswordValueFrom valueFrom;

    public PasswordValueFrom getValueFrom() {
        return valueFrom;
    }

    public void setValueFrom(PasswordValueFrom valueFrom) {
        this.valueFrom = valueFrom;
    }
}
