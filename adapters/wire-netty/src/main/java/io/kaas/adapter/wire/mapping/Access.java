package io.kaas.adapter.wire.mapping;

import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.application.port.in.Authorizer;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;

/**
 * The authorization checks handlers make, as Apache's {@code AuthHelper}: the requester is the
 * connection's principal at the client's address. Without an authorizer every check passes at the cost
 * of one call; the client's address is worked out only when ACLs are evaluated.
 */
public final class Access {
    /** Apache's {@code authorized_operations} value for "the client did not ask". */
    public static final int NOT_REQUESTED = Integer.MIN_VALUE;
    /** Everything allowed: no authorizer configured. */
    public static final Access ALLOW_ALL = new Access(Authorizer.ALLOW_ALL);

    private final Authorizer authorizer;

    public Access(Authorizer authorizer) {
        this.authorizer = authorizer;
    }

    /** Whether an authorizer is configured (Apache's {@code authorizer.isDefined}). */
    public boolean enabled() {
        return authorizer.enabled();
    }

    public boolean allows(RequestContext context, AclOperation operation, AclResourceType type, String name) {
        return !authorizer.enabled()
                || authorizer.allows(context.principal(), context.clientIp(), operation, type, name);
    }

    public boolean topic(RequestContext context, AclOperation operation, String topic) {
        return allows(context, operation, AclResourceType.TOPIC, topic);
    }

    public boolean group(RequestContext context, AclOperation operation, String groupId) {
        return allows(context, operation, AclResourceType.GROUP, groupId);
    }

    public boolean transactionalId(RequestContext context, AclOperation operation, String transactionalId) {
        return allows(context, operation, AclResourceType.TRANSACTIONAL_ID, transactionalId);
    }

    public boolean cluster(RequestContext context, AclOperation operation) {
        return allows(context, operation, AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME);
    }

    /** Whether the operation is allowed on some resource of the type (Apache's {@code authorizeByResourceType}). */
    public boolean any(RequestContext context, AclOperation operation, AclResourceType type) {
        return !authorizer.enabled() || authorizer.allowsAny(context.principal(), context.clientIp(), operation, type);
    }

    /** The topics among {@code names} the operation is not allowed on; empty without an authorizer. */
    public Set<String> deniedTopics(RequestContext context, AclOperation operation, Collection<String> names) {
        if (!authorizer.enabled()) {
            return Set.of();
        }
        Set<String> denied = new LinkedHashSet<>();
        for (String name : new LinkedHashSet<>(names)) {
            if (!topic(context, operation, name)) {
                denied.add(name);
            }
        }
        return denied;
    }

    /**
     * The {@code authorized_operations} bit field of a resource: of the operations that mean something on its
     * type, those allowed ({@code NOT_REQUESTED} when the client did not ask).
     */
    public int operations(RequestContext context, boolean requested, AclResourceType type, String name) {
        if (!requested) {
            return NOT_REQUESTED;
        }
        Set<Byte> codes = new LinkedHashSet<>();
        for (AclOperation operation : type.supportedOperations()) {
            if (allows(context, operation, type, name)) {
                codes.add(AclMapping.toWire(operation).code());
            }
        }
        return Utils.to32BitField(codes);
    }

    /**
     * The cluster's {@code authorized_operations} in Metadata and DescribeCluster: as Apache 3.7, 0 unless
     * the principal may describe the cluster.
     */
    public int clusterOperations(RequestContext context, boolean requested) {
        if (requested && !cluster(context, AclOperation.DESCRIBE)) {
            return 0;
        }
        return operations(context, requested, AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME);
    }
}
