package io.kaas.domain.security;

/** Whether an ACL allows or denies; a matching DENY always wins. */
public enum AclPermission {
    ALLOW, DENY
}
