package io.kaas.domain.security;

import java.util.Objects;

/**
 * One ACL, as Apache's {@code AclBinding} flattened: the principal it is for (or {@code User:*}), the
 * client host ({@code *} for every host), the resource pattern, one operation and the permission.
 */
public record AclBinding(KafkaPrincipal principal, String host, AclResourceType resourceType, String resourceName,
                         AclPatternType patternType, AclOperation operation, AclPermission permission) {
    public static final String WILDCARD = "*";

    public AclBinding {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceName, "resourceName");
        Objects.requireNonNull(patternType, "patternType");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(permission, "permission");
    }
}
