package io.kaas.operator.model.user;

import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.user.UserAclRules;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.operator.model.Refusal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A KafkaUser's Strimzi-shaped {@code spec.authorization.acls} as the flat bindings of {@code acls.json}
 * ({@link UserAclRules} maps one user), and {@code acls.json} rebuilt from all of them.
 */
public final class UserAcls {
    private UserAcls() {
    }

    /** The user's bindings in rule order, or why a rule cannot be expressed. */
    public static Check of(KafkaUser user) {
        try {
            return new Valid(UserAclRules.bindings(user));
        } catch (IllegalArgumentException e) {
            return new Invalid(new Refusal(Refusal.INVALID_ACL, e.getMessage()));
        }
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
        return UserAclRules.principal(user);
    }

    /** The outcome of mapping a user's rules. */
    public sealed interface Check permits Valid, Invalid {
    }

    public record Valid(List<AclBinding> bindings) implements Check {
    }

    public record Invalid(Refusal why) implements Check {
    }
}
