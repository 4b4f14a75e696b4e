package io.kaas.adapter.k8s.user;

import io.kaas.adapter.k8s.crd.AclPatternType;
import io.kaas.adapter.k8s.crd.AclResource;
import io.kaas.adapter.k8s.crd.AclRule;
import io.kaas.adapter.k8s.crd.AclRuleType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.UserAuthorization;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A KafkaUser's Strimzi-shaped {@code spec.authorization.acls} and the flat bindings of {@code acls.json}, both ways:
 * a rule is one binding per operation, for principal {@code User:<metadata.name>}, host {@code *} and type allow unless
 * the rule says otherwise, pattern literal unless it says prefix, and the cluster resource under Apache's one name,
 * {@code kafka-cluster}. The operator reads rules into bindings; the ACL admin APIs of a cluster write bindings back as
 * rules, one rule per resource, pattern, host and permission.
 */
public final class UserAclRules {
    /** A KafkaUser's name: an RFC 1123 subdomain, as the API server requires. */
    private static final Pattern RESOURCE_NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final int RESOURCE_NAME_LIMIT = 253;

    private UserAclRules() {
    }

    /**
     * The user's bindings in rule order.
     *
     * @throws IllegalArgumentException naming the rule that cannot be expressed
     */
    public static List<AclBinding> bindings(KafkaUser user) {
        UserAuthorization authorization = user.getSpec() == null ? null : user.getSpec().getAuthorization();
        if (authorization == null || authorization.getAcls() == null) {
            return List.of();
        }
        KafkaPrincipal principal = principal(user);
        Set<AclBinding> bindings = new LinkedHashSet<>();
        List<AclRule> rules = authorization.getAcls();
        for (int i = 0; i < rules.size(); i++) {
            AclRule rule = rules.get(i);
            String at = "spec.authorization.acls[" + i + "]";
            if (rule == null || rule.getResource() == null || rule.getResource().getType() == null) {
                throw new IllegalArgumentException(at + ".resource.type is required");
            }
            if (rule.getOperations() == null || rule.getOperations().isEmpty()
                    || rule.getOperations().stream().anyMatch(Objects::isNull)) {
                throw new IllegalArgumentException(at + ".operations must name at least one operation");
            }
            AclResource resource = rule.getResource();
            AclResourceType type = AclResourceType.valueOf(resource.getType().name());
            String name;
            if (type == AclResourceType.CLUSTER) {
                name = AclResourceType.CLUSTER_NAME;
            } else if (resource.getName() == null || resource.getName().isEmpty()) {
                throw new IllegalArgumentException(at + ".resource.name is required for a "
                        + type.name().toLowerCase() + " rule");
            } else {
                name = resource.getName();
            }
            var pattern = resource.getPatternType() == AclPatternType.PREFIX && type != AclResourceType.CLUSTER
                    ? io.kaas.domain.security.AclPatternType.PREFIXED : io.kaas.domain.security.AclPatternType.LITERAL;
            String host = rule.getHost() == null || rule.getHost().isEmpty() ? AclBinding.WILDCARD : rule.getHost();
            AclPermission permission = rule.getType() == AclRuleType.DENY ? AclPermission.DENY : AclPermission.ALLOW;
            for (var operation : rule.getOperations()) {
                bindings.add(new AclBinding(principal, host, type, name, pattern,
                        AclOperation.valueOf(operation.name()), permission));
            }
        }
        return List.copyOf(bindings);
    }

    /** The principal a KafkaUser names: {@code User:<metadata.name>}. */
    public static KafkaPrincipal principal(KafkaUser user) {
        return KafkaPrincipal.user(user.getMetadata().getName());
    }

    /** Why a binding cannot live on a KafkaUser's rules, if it cannot. */
    public static Optional<String> refusal(AclBinding binding) {
        KafkaPrincipal principal = binding.principal();
        if (!principal.type().equals(KafkaPrincipal.USER_TYPE)) {
            return Optional.of("In a cluster ACLs live on KafkaUser resources, which name User principals only, not "
                    + principal);
        }
        if (!isResourceName(principal.name())) {
            return Optional.of("In a cluster ACLs live on KafkaUser resources, and " + principal.name()
                    + " cannot name one (a lowercase RFC 1123 subdomain)");
        }
        if (Arrays.stream(io.kaas.adapter.k8s.crd.AclResourceType.values())
                .noneMatch(type -> type.name().equals(binding.resourceType().name()))) {
            return Optional.of("A KafkaUser's ACLs name topic, group, cluster or transactionalId resources, not "
                    + binding.resourceType());
        }
        if (Arrays.stream(io.kaas.adapter.k8s.crd.AclOperation.values())
                .noneMatch(operation -> operation.name().equals(binding.operation().name()))) {
            return Optional.of("A KafkaUser's ACLs cannot name the operation " + binding.operation());
        }
        return Optional.empty();
    }

    /**
     * The rules holding exactly {@code bindings}, in first-seen order: one rule per resource, pattern, host and
     * permission, with its operations in first-seen order.
     */
    public static List<AclRule> rules(Collection<AclBinding> bindings) {
        Map<List<Object>, List<io.kaas.adapter.k8s.crd.AclOperation>> operations = new LinkedHashMap<>();
        Map<List<Object>, AclBinding> first = new LinkedHashMap<>();
        for (AclBinding binding : bindings) {
            List<Object> key = List.of(binding.resourceType(), binding.resourceName(), binding.patternType(),
                    binding.host(), binding.permission());
            first.putIfAbsent(key, binding);
            List<io.kaas.adapter.k8s.crd.AclOperation> ops = operations.computeIfAbsent(key, k -> new ArrayList<>());
            var operation = io.kaas.adapter.k8s.crd.AclOperation.valueOf(binding.operation().name());
            if (!ops.contains(operation)) {
                ops.add(operation);
            }
        }
        List<AclRule> rules = new ArrayList<>();
        first.forEach((key, binding) -> rules.add(rule(binding, operations.get(key))));
        return rules;
    }

    static boolean isResourceName(String name) {
        return name.length() <= RESOURCE_NAME_LIMIT && RESOURCE_NAME.matcher(name).matches();
    }

    private static AclRule rule(AclBinding binding, List<io.kaas.adapter.k8s.crd.AclOperation> operations) {
        AclResource resource = new AclResource();
        resource.setType(io.kaas.adapter.k8s.crd.AclResourceType.valueOf(binding.resourceType().name()));
        if (binding.resourceType() != AclResourceType.CLUSTER) {
            resource.setName(binding.resourceName());
            resource.setPatternType(binding.patternType() == io.kaas.domain.security.AclPatternType.PREFIXED
                    ? AclPatternType.PREFIX : AclPatternType.LITERAL);
        }
        AclRule rule = new AclRule();
        rule.setResource(resource);
        rule.setOperations(List.copyOf(operations));
        rule.setHost(binding.host());
        rule.setType(binding.permission() == AclPermission.DENY ? AclRuleType.DENY : AclRuleType.ALLOW);
        return rule;
    }
}
