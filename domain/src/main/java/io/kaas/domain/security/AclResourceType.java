package io.kaas.domain.security;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/** What an ACL is about, as Apache's {@code ResourceType} (minus UNKNOWN and ANY, which only filters use). */
public enum AclResourceType {
    TOPIC(EnumSet.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE,
            AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS)),
    GROUP(EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE)),
    CLUSTER(EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE)),
    TRANSACTIONAL_ID(EnumSet.of(AclOperation.DESCRIBE, AclOperation.WRITE)),
    DELEGATION_TOKEN(EnumSet.of(AclOperation.DESCRIBE)),
    USER(EnumSet.of(AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS));

    /** The one cluster resource's name, as in Apache. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    private final Set<AclOperation> supportedOperations;

    AclResourceType(Set<AclOperation> supportedOperations) {
        this.supportedOperations = Collections.unmodifiableSet(supportedOperations);
    }

    /**
     * The operations that mean something on this kind of resource (Apache's {@code AclEntry.supportedOperations}):
     * what an {@code authorized_operations} field reports on.
     */
    public Set<AclOperation> supportedOperations() {
        return supportedOperations;
    }
}
