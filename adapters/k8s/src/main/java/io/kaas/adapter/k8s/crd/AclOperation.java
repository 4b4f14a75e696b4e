package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The operations an ACL rule names, in Strimzi's spelling of Kafka's operations. */
public enum AclOperation {
    @JsonProperty("Read")
    READ,
    @JsonProperty("Write")
    WRITE,
    @JsonProperty("Create")
    CREATE,
    @JsonProperty("Delete")
    DELETE,
    @JsonProperty("Alter")
    ALTER,
    @JsonProperty("Describe")
    DESCRIBE,
    @JsonProperty("ClusterAction")
    CLUSTER_ACTION,
    @JsonProperty("AlterConfigs")
    ALTER_CONFIGS,
    @JsonProperty("DescribeConfigs")
    DESCRIBE_CONFIGS,
    @JsonProperty("IdempotentWrite")
    IDEMPOTENT_WRITE,
    @JsonProperty("All")
    ALL
}
