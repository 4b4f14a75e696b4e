package io.kaas.domain.security;

/** What an ACL is about, as Apache's {@code ResourceType} (minus UNKNOWN and ANY, which only filters use). */
public enum AclResourceType {
    TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER;

    /** The one cluster resource's name, as in Apache. */
    public static final String CLUSTER_NAME = "kafka-cluster";
}
