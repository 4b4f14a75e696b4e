package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether an ACL rule allows or denies. */
public enum AclRuleType {
    @JsonProperty("allow")
    ALLOW,
    @JsonProperty("deny")
    DENY
}
