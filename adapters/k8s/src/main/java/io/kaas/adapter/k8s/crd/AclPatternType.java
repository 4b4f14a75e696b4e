package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How an ACL rule's resource name matches: exactly, or as a prefix (KIP-290). */
public enum AclPatternType {
    @JsonProperty("literal")
    LITERAL,
    @JsonProperty("prefix")
    PREFIX
}
