package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The authorization a KafkaUser's ACLs are for: simple, as in Strimzi. */
public enum AuthorizationType {
    @JsonProperty("simple")
    SIMPLE
}
