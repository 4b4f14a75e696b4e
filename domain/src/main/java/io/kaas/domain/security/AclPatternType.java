package io.kaas.domain.security;

/** How an ACL's resource name matches (KIP-290): exactly (or {@code *} for all), or as a prefix. */
public enum AclPatternType {
    LITERAL, PREFIXED
}
