package io.kaas.domain.security;

/** The operations an ACL grants or denies, as Apache's {@code AclOperation} (minus UNKNOWN and ANY). */
public enum AclOperation {
    ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS,
    IDEMPOTENT_WRITE, CREATE_TOKENS, DESCRIBE_TOKENS
}
