package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The kinds of resource an ACL rule can name. */
public enum AclResourceType {
    @JsonProperty("topic")
    TOPIC,
    @JsonProperty("group")
    GROUP,
    @JsonProperty("cluster")
    CLUSTER,
    @JsonProperty("transactionalId")
    TRANSACTIONAL_ID
}
