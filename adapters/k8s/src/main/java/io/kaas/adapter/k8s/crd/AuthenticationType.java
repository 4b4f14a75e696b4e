package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a KafkaUser authenticates, in Strimzi's spelling. */
public enum AuthenticationType {
    @JsonProperty("scram-sha-512")
    SCRAM_SHA_512,
    @JsonProperty("scram-sha-256")
    SCRAM_SHA_256,
    @JsonProperty("tls")
    TLS
}
