package io.kaas.adapter.wire.mapping;

import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ACLs between Apache's client types (what the ACL requests carry) and the domain's. The enums share
 * Apache's names; UNKNOWN and ANY exist only on the wire: in a binding they are invalid, in a filter ANY
 * (and a null name, principal or host) matches everything.
 */
public final class AclMapping {
    private AclMapping() {
    }

    public static org.apache.kafka.common.acl.AclOperation toWire(AclOperation operation) {
        return org.apache.kafka.common.acl.AclOperation.valueOf(operation.name());
    }

    /**
     * A binding to create.
     *
     * @throws InvalidRequestException for UNKNOWN or ANY anywhere, or a principal not of the form Type:name
     */
    public static AclBinding fromWire(org.apache.kafka.common.acl.AclBinding wire) {
        if (wire.isUnknown() || wire.pattern().patternType() == PatternType.MATCH
                || wire.pattern().patternType() == PatternType.ANY || wire.pattern().resourceType() == ResourceType.ANY
                || wire.entry().operation() == org.apache.kafka.common.acl.AclOperation.ANY
                || wire.entry().permissionType() == AclPermissionType.ANY) {
            throw new InvalidRequestException("Invalid ACL binding " + wire + ": every field must have a specific value");
        }
        return new AclBinding(principal(wire.entry().principal()), wire.entry().host(),
                AclResourceType.valueOf(wire.pattern().resourceType().name()), wire.pattern().name(),
                AclPatternType.valueOf(wire.pattern().patternType().name()),
                AclOperation.valueOf(wire.entry().operation().name()),
                AclPermission.valueOf(wire.entry().permissionType().name()));
    }

    public static org.apache.kafka.common.acl.AclBinding toWire(AclBinding acl) {
        return new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.valueOf(acl.resourceType().name()), acl.resourceName(),
                        PatternType.valueOf(acl.patternType().name())),
                new AccessControlEntry(acl.principal().toString(), acl.host(), toWire(acl.operation()),
                        AclPermissionType.valueOf(acl.permission().name())));
    }

    /**
     * A describe or delete filter.
     *
     * @throws InvalidRequestException for UNKNOWN anywhere or a principal not of the form Type:name
     */
    public static AclFilter fromWire(AclBindingFilter wire) {
        if (wire.isUnknown()) {
            throw new InvalidRequestException("Invalid ACL filter " + wire + ": it has an unknown field");
        }
        ResourcePatternFilter pattern = wire.patternFilter();
        AccessControlEntryFilter entry = wire.entryFilter();
        return new AclFilter(
                pattern.resourceType() == ResourceType.ANY ? null : AclResourceType.valueOf(pattern.resourceType().name()),
                pattern.name(),
                AclFilter.PatternFilter.valueOf(pattern.patternType().name()),
                entry.principal() == null ? null : principal(entry.principal()),
                entry.host(),
                entry.operation() == org.apache.kafka.common.acl.AclOperation.ANY ? null
                        : AclOperation.valueOf(entry.operation().name()),
                entry.permissionType() == AclPermissionType.ANY ? null
                        : AclPermission.valueOf(entry.permissionType().name()));
    }

    private static KafkaPrincipal principal(String text) {
        try {
            return KafkaPrincipal.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("Invalid principal " + text + ": " + e.getMessage());
        }
    }
}
