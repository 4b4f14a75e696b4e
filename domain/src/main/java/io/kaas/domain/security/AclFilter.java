package io.kaas.domain.security;

/**
 * Which ACLs a DescribeAcls or DeleteAcls filter selects, as Apache's {@code AclBindingFilter}: each
 * {@code null} field matches anything. The pattern filter picks bindings by their pattern type, or with
 * {@link PatternFilter#MATCH} every binding that applies to the named resource (its literal name, the
 * wildcard, or a prefix of it — KIP-290).
 */
public record AclFilter(AclResourceType resourceType, String resourceName, PatternFilter patternFilter,
                        KafkaPrincipal principal, String host, AclOperation operation, AclPermission permission) {

    /** Selects every ACL. */
    public static final AclFilter ANY = new AclFilter(null, null, PatternFilter.ANY, null, null, null, null);

    public AclFilter {
        if (patternFilter == null) {
            throw new IllegalArgumentException("a filter needs a pattern filter (ANY to match all)");
        }
    }

    /** How a filter selects by pattern type. */
    public enum PatternFilter {
        ANY, MATCH, LITERAL, PREFIXED;

        static PatternFilter of(AclPatternType type) {
            return type == AclPatternType.LITERAL ? LITERAL : PREFIXED;
        }
    }

    public boolean matches(AclBinding acl) {
        return resourceMatches(acl)
                && (principal == null || principal.equals(acl.principal()))
                && (host == null || host.equals(acl.host()))
                && (operation == null || operation == acl.operation())
                && (permission == null || permission == acl.permission());
    }

    private boolean resourceMatches(AclBinding acl) {
        if (resourceType != null && resourceType != acl.resourceType()) {
            return false;
        }
        if (patternFilter != PatternFilter.ANY && patternFilter != PatternFilter.MATCH
                && patternFilter != PatternFilter.of(acl.patternType())) {
            return false;
        }
        if (resourceName == null) {
            return true;
        }
        if (patternFilter != PatternFilter.MATCH) {
            return resourceName.equals(acl.resourceName());
        }
        return acl.patternType() == AclPatternType.LITERAL
                ? resourceName.equals(acl.resourceName()) || acl.resourceName().equals(AclBinding.WILDCARD)
                : resourceName.startsWith(acl.resourceName());
    }
}
