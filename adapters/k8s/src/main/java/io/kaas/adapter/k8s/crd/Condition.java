package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** One entry of a kaas resource's {@code status.conditions}, shaped like Kubernetes' metav1.Condition. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Condition {
    @Required
    @JsonPropertyDescription("Condition type; kaas reports Ready.")
    private String type;

    @Required
    @JsonPropertyDescription("True, False or Unknown.")
    private String status;

    @JsonPropertyDescription("One CamelCase word saying why, e.g. PartitionDecreaseRefused.")
    private String reason;

    @JsonPropertyDescription("What was done or rejected, for a person.")
    private String message;

    @JsonPropertyDescription("The metadata.generation this condition describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("When status last changed (RFC 3339).")
    private String lastTransitionTime;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }
}
