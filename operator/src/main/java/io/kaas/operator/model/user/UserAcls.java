package io.kaas.operator.model.user;

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
import io.kaas.operator.model.Refusal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A KafkaUser's Strimzi-shaped {@code spec.authorization.acls} as the flat bindings of {@code acls.json}: one per
 * operation, for principal {@code User:<metadata.name>}, host {@code *} and type allow unless the rule says otherwise,
 * pattern literal unless it says prefix, and the cluster resource under Apache's one name, {@code kafka-cluster}.
 */
public final class UserAcls {
    private UserAcls() {
    }

    /** The user's bindings in rule order, or why a rule cannot be expressed. */
    public static Check of(KafkaUser user) {
        UserAuthorization authorization = user.getSpec() == null ? null : user.getSpec().getAuthorization();
        if (authorization == null || authorization.getAcls() == null) {
            return new Valid(List.of());
        }
        KafkaPrincipal principal = principal(user);
        Set<AclBinding> bindings = new LinkedHashSet<>();
        List<AclRule> rules = authorization.getAcls();
        for (int i = 0; i < rules.size(); i++) {
            AclRule rule = rules.get(i);
            String at = "spec.authorization.acls[" + i + "]";
            if (rule == null || rule.getResource() == null || rule.getResource().getType() == null) {
                return invalid(at + ".resource.type is required");
            }
            if (rule.getOperations() == null || rule.getOperations().isEmpty()
                    || rule.getOperations().stream().anyMatch(Objects::isNull)) {
                return invalid(at + ".operations must name at least one operation");
            }
            AclResource resource = rule.getResource();
            AclResourceType type = AclResourceType.valueOf(resource.getType().name());
            String name;
            if (type == AclResourceType.CLUSTER) {
                name = AclResourceType.CLUSTER_NAME;
            } else if (resource.getName() == null || resource.getName().isEmpty()) {
                return invalid(at + ".resource.name is required for a " + type.name().toLowerCase() + " rule");
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
        return new Valid(List.copyOf(bindings));
    }

    /**
     * {@code acls.json} rebuilt from every KafkaUser: each user's bindings, users by name. A user whose rules cannot be
     * expressed keeps the bindings {@code current} has for it, as a refused spec changes nothing on the volume, and so
     * does a user being deleted, which the operator leaves untouched until it is gone.
     */
    public static List<AclBinding> rebuild(Collection<KafkaUser> users, List<AclBinding> current) {
        List<KafkaUser> byName = new ArrayList<>(users);
        byName.sort(Comparator.comparing(user -> user.getMetadata().getName()));
        Set<AclBinding> all = new LinkedHashSet<>();
        for (KafkaUser user : byName) {
            if (!user.isMarkedForDeletion() && of(user) instanceof Valid valid) {
                all.addAll(valid.bindings());
            } else {
                KafkaPrincipal principal = principal(user);
                current.stream().filter(binding -> binding.principal().equals(principal)).forEach(all::add);
            }
        }
        return List.copyOf(all);
    }

    /** The principal a KafkaUser names: {@code User:<metadata.name>}. */
    public static KafkaPrincipal principal(KafkaUser user) {
        return KafkaPrincipal.user(user.getMetadata().getName());
    }

    private static Check invalid(String message) {
        return new Invalid(new Refusal(Refusal.INVALID_ACL, message));
    }

    /** The outcome of mapping a user's rules. */
    public sealed interface Check permits Valid, Invalid {
    }

    public record Valid(List<AclBinding> bindings) implements Check {
    }

    public record Invalid(Refusal why) implements Check {
    }
}
