package io.kaas.domain.security;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every ACL of the cluster, indexed for evaluation, with Apache 3.7's semantics
 * ({@code StandardAuthorizerData}): an ACL applies to a resource when its pattern is the literal name,
 * the literal wildcard {@code *}, or a prefix of the name; to a principal when it names it or
 * {@code User:*}; to a host when it names the client's address or {@code *}. A matching DENY wins over
 * any ALLOW; an ALLOW of READ, WRITE, DELETE or ALTER implies DESCRIBE and one of ALTER_CONFIGS implies
 * DESCRIBE_CONFIGS (a DENY implies nothing); ALL covers every operation. With no matching ALLOW the
 * answer is no ({@code allow.everyone.if.no.acl.found=false}). Immutable: a reload builds a new one.
 */
public final class AclRules {
    public static final AclRules EMPTY = new AclRules(List.of());
    static final KafkaPrincipal ANY_USER = KafkaPrincipal.user(AclBinding.WILDCARD);

    private final List<AclBinding> bindings;
    private final Map<AclResourceType, Section> sections = new EnumMap<>(AclResourceType.class);

    private AclRules(List<AclBinding> bindings) {
        this.bindings = List.copyOf(bindings);
        for (AclBinding binding : this.bindings) {
            sections.computeIfAbsent(binding.resourceType(), t -> new Section()).add(binding);
        }
        sections.values().forEach(Section::seal);
    }

    public static AclRules of(List<AclBinding> bindings) {
        return bindings.isEmpty() ? EMPTY : new AclRules(bindings);
    }

    /** Every ACL, in the order given. */
    public List<AclBinding> bindings() {
        return bindings;
    }

    /** Whether {@code principal} connecting from {@code host} may do {@code operation} on the named resource. */
    public boolean allows(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type,
                          String name) {
        Section section = sections.get(type);
        if (section == null) {
            return false;
        }
        Verdict verdict = new Verdict();
        verdict.consider(section.literal.get(name), principal, host, operation);
        verdict.consider(section.literal.get(AclBinding.WILDCARD), principal, host, operation);
        for (int length : section.prefixLengths) {
            if (length > name.length() || verdict.denied) {
                break;
            }
            verdict.consider(section.prefixed.get(name.substring(0, length)), principal, host, operation);
        }
        return verdict.allowed && !verdict.denied;
    }

    /**
     * Whether {@code principal} may do {@code operation} on at least one resource of {@code type}, with
     * Apache's {@code authorizeByResourceType} rules: an ALLOW (of exactly that operation or ALL) counts
     * unless a DENY covers everything it allows — the wildcard, the same literal name, or a prefix of its
     * name. Implied operations play no part here, as in Apache.
     */
    public boolean allowsAny(KafkaPrincipal principal, String host, AclOperation operation, AclResourceType type) {
        Section section = sections.get(type);
        if (section == null) {
            return false;
        }
        Set<String> deniedLiterals = new TreeSet<>();
        Set<String> deniedPrefixes = new TreeSet<>();
        List<AclBinding> allows = new ArrayList<>();
        for (AclBinding acl : section.all) {
            if (!appliesTo(acl, principal, host) || acl.operation() != operation && acl.operation() != AclOperation.ALL) {
                continue;
            }
            if (acl.permission() == AclPermission.DENY) {
                if (acl.patternType() == AclPatternType.LITERAL && acl.resourceName().equals(AclBinding.WILDCARD)) {
                    return false;
                }
                (acl.patternType() == AclPatternType.LITERAL ? deniedLiterals : deniedPrefixes).add(acl.resourceName());
            } else {
                allows.add(acl);
            }
        }
        for (AclBinding allow : allows) {
            String name = allow.resourceName();
            if (allow.patternType() == AclPatternType.LITERAL && name.equals(AclBinding.WILDCARD)) {
                return true;
            }
            if (allow.patternType() == AclPatternType.LITERAL && deniedLiterals.contains(name)) {
                continue;
            }
            boolean dominated = false;
            for (int length = 1; length <= name.length() && !dominated; length++) {
                dominated = deniedPrefixes.contains(name.substring(0, length));
            }
            if (!dominated) {
                return true;
            }
        }
        return false;
    }

    /** The ACLs a describe or delete filter selects, in order. */
    public List<AclBinding> matching(AclFilter filter) {
        return bindings.stream().filter(filter::matches).toList();
    }

    static boolean appliesTo(AclBinding acl, KafkaPrincipal principal, String host) {
        return (acl.principal().equals(principal) || acl.principal().equals(ANY_USER))
                && (acl.host().equals(AclBinding.WILDCARD) || acl.host().equals(host));
    }

    /** What one ACL says about an operation, {@code null} when it says nothing (Apache's {@code findResult}). */
    static AclPermission verdictOf(AclBinding acl, AclOperation requested) {
        AclOperation granted = acl.operation();
        if (granted == AclOperation.ALL || granted == requested) {
            return acl.permission();
        }
        if (acl.permission() == AclPermission.DENY) {
            return null;
        }
        boolean implied = switch (requested) {
            case DESCRIBE -> granted == AclOperation.READ || granted == AclOperation.WRITE
                    || granted == AclOperation.DELETE || granted == AclOperation.ALTER;
            case DESCRIBE_CONFIGS -> granted == AclOperation.ALTER_CONFIGS;
            default -> false;
        };
        return implied ? AclPermission.ALLOW : null;
    }

    /** The ACLs of one resource type: literal names (the wildcard among them) and prefixes by their length. */
    private static final class Section {
        final List<AclBinding> all = new ArrayList<>();
        final Map<String, List<AclBinding>> literal = new HashMap<>();
        final Map<String, List<AclBinding>> prefixed = new HashMap<>();
        int[] prefixLengths = new int[0];

        void add(AclBinding binding) {
            all.add(binding);
            if (binding.patternType() == AclPatternType.LITERAL) {
                literal.computeIfAbsent(binding.resourceName(), n -> new ArrayList<>()).add(binding);
            } else {
                prefixed.computeIfAbsent(binding.resourceName(), n -> new ArrayList<>()).add(binding);
            }
        }

        void seal() {
            prefixLengths = prefixed.keySet().stream().mapToInt(String::length).distinct().sorted().toArray();
        }
    }

    /** Folds the ACLs that apply to one request; a DENY ends the search. */
    private static final class Verdict {
        boolean allowed;
        boolean denied;

        void consider(List<AclBinding> acls, KafkaPrincipal principal, String host, AclOperation operation) {
            if (acls == null) {
                return;
            }
            for (AclBinding acl : acls) {
                if (!appliesTo(acl, principal, host)) {
                    continue;
                }
                AclPermission permission = verdictOf(acl, operation);
                if (permission == AclPermission.DENY) {
                    denied = true;
                    return;
                }
                allowed |= permission == AclPermission.ALLOW;
            }
        }
    }
}
