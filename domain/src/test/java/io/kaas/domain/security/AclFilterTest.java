package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** AclFilter against Apache's own {@code AclBindingFilter.matches} over every combination of a small grid. */
class AclFilterTest {
    private static final String[] NAMES = {"orders", "orders-eu", "ord", "*", "x"};
    private static final KafkaPrincipal[] PRINCIPALS = {KafkaPrincipal.user("alice"), KafkaPrincipal.user("*")};
    private static final String[] HOSTS = {"*", "10.0.0.1"};

    @Test
    void selectsWhatApachesFilterSelects() {
        List<AclBinding> bindings = new ArrayList<>();
        for (AclResourceType type : List.of(AclResourceType.TOPIC, AclResourceType.GROUP)) {
            for (String name : NAMES) {
                for (AclPatternType pattern : AclPatternType.values()) {
                    for (KafkaPrincipal principal : PRINCIPALS) {
                        for (String host : HOSTS) {
                            for (AclOperation operation : List.of(AclOperation.READ, AclOperation.ALL)) {
                                for (AclPermission permission : AclPermission.values()) {
                                    bindings.add(new AclBinding(principal, host, type, name, pattern, operation, permission));
                                }
                            }
                        }
                    }
                }
            }
        }
        int compared = 0;
        for (AclResourceType type : new AclResourceType[] {null, AclResourceType.TOPIC}) {
            for (String name : new String[] {null, "orders", "orders-eu", "*"}) {
                for (AclFilter.PatternFilter patternFilter : AclFilter.PatternFilter.values()) {
                    for (KafkaPrincipal principal : new KafkaPrincipal[] {null, PRINCIPALS[0]}) {
                        for (String host : new String[] {null, "10.0.0.1"}) {
                            for (AclOperation operation : new AclOperation[] {null, AclOperation.READ}) {
                                for (AclPermission permission : new AclPermission[] {null, AclPermission.DENY}) {
                                    AclFilter filter = new AclFilter(type, name, patternFilter, principal, host, operation,
                                            permission);
                                    AclBindingFilter apache = apache(filter);
                                    for (AclBinding binding : bindings) {
                                        assertThat(filter.matches(binding)).as("%s on %s", filter, binding)
                                                .isEqualTo(apache.matches(apache(binding)));
                                        compared++;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(100_000);
    }

    private static org.apache.kafka.common.acl.AclBinding apache(AclBinding b) {
        return new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.valueOf(b.resourceType().name()), b.resourceName(),
                        PatternType.valueOf(b.patternType().name())),
                new AccessControlEntry(b.principal().toString(), b.host(),
                        org.apache.kafka.common.acl.AclOperation.valueOf(b.operation().name()),
                        AclPermissionType.valueOf(b.permission().name())));
    }

    private static AclBindingFilter apache(AclFilter f) {
        return new AclBindingFilter(
                new ResourcePatternFilter(f.resourceType() == null ? ResourceType.ANY : ResourceType.valueOf(f.resourceType().name()),
                        f.resourceName(), PatternType.valueOf(f.patternFilter().name())),
                new AccessControlEntryFilter(f.principal() == null ? null : f.principal().toString(), f.host(),
                        f.operation() == null ? org.apache.kafka.common.acl.AclOperation.ANY
                                : org.apache.kafka.common.acl.AclOperation.valueOf(f.operation().name()),
                        f.permission() == null ? AclPermissionType.ANY : AclPermissionType.valueOf(f.permission().name())));
    }
}
