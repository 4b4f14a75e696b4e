package io.kaas.adapter.wire.mapping;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.utils.Utils;

/**
 * The authorized-operations bit fields of Metadata, DescribeCluster and DescribeGroups. With no authorizer
 * configured every supported operation is allowed, as in Apache; a request that did not ask gets
 * Apache's "not requested" value.
 */
public final class AuthorizedOperations {
    /** Apache's value for "the client did not ask". */
    public static final int NOT_REQUESTED = Integer.MIN_VALUE;

    private static final Set<AclOperation> TOPIC = EnumSet.of(AclOperation.READ, AclOperation.WRITE,
            AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
    private static final Set<AclOperation> GROUP = EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE,
            AclOperation.DELETE);
    private static final Set<AclOperation> CLUSTER = EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER, AclOperation.DESCRIBE);

    private AuthorizedOperations() {
    }

    public static int topic(boolean requested) {
        return requested ? bits(TOPIC) : NOT_REQUESTED;
    }

    public static int group(boolean requested) {
        return requested ? bits(GROUP) : NOT_REQUESTED;
    }

    public static int cluster(boolean requested) {
        return requested ? bits(CLUSTER) : NOT_REQUESTED;
    }

    private static int bits(Set<AclOperation> operations) {
        return Utils.to32BitField(operations.stream().map(AclOperation::code).collect(Collectors.toSet()));
    }
}
