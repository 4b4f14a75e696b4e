package io.kaas.adapter.k8s.user;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.ArgoCdAnnotations;
import io.kaas.adapter.k8s.crd.AuthorizationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.UserAuthorization;
import io.kaas.application.port.out.AclWriter;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A cluster's ACL writes: each principal's ACLs are its KafkaUser's {@code spec.authorization.acls}, rewritten by a
 * read-modify-write the API server refuses (409) when anything wrote in between, and then read and applied again. The
 * operator rebuilds {@code acls.json} from every KafkaUser and the brokers reload it, so a change is in effect a reload
 * after the answer, as in Apache's KRaft cluster where brokers apply the controller's record after it commits. An ACL
 * for a principal with no KafkaUser creates one that carries only the ACLs (as Apache accepts an ACL for any
 * principal); removing ACLs never deletes a KafkaUser.
 */
public final class KafkaUserAclWriter implements AclWriter {
    private final KafkaUserEditor users;

    /** @param argoCd the annotations every KafkaUser this broker creates carries, if any */
    public KafkaUserAclWriter(KubernetesClient client, String namespace, Optional<ArgoCdAnnotations> argoCd) {
        this.users = new KafkaUserEditor(client, namespace, argoCd);
    }

    @Override
    public Optional<String> refusal(AclBinding binding) {
        return UserAclRules.refusal(binding);
    }

    @Override
    public void add(List<AclBinding> bindings) {
        Map<String, List<AclBinding>> byUser = new LinkedHashMap<>();
        bindings.forEach(b -> byUser.computeIfAbsent(b.principal().name(), name -> new ArrayList<>()).add(b));
        byUser.forEach((user, added) -> rewrite(user, true, current -> {
            Set<AclBinding> next = new LinkedHashSet<>(current);
            next.addAll(added);
            return List.copyOf(next);
        }));
    }

    @Override
    public List<List<AclBinding>> remove(List<AclFilter> filters) {
        List<List<AclBinding>> removed = new ArrayList<>();
        filters.forEach(filter -> removed.add(new ArrayList<>()));
        List<KafkaUser> listed = new ArrayList<>(users.list());
        listed.sort(Comparator.comparing(user -> user.getMetadata().getName()));
        for (KafkaUser user : listed) {
            if (!selects(filters, user)) {
                continue;
            }
            List<List<AclBinding>> fromUser = new ArrayList<>();
            rewrite(user.getMetadata().getName(), false, current -> {
                fromUser.clear();
                List<AclBinding> kept = new ArrayList<>(current);
                for (AclFilter filter : filters) {
                    List<AclBinding> matched = kept.stream().filter(filter::matches).toList();
                    kept.removeAll(matched);
                    fromUser.add(matched);
                }
                return kept;
            });
            for (int i = 0; i < fromUser.size(); i++) {
                removed.get(i).addAll(fromUser.get(i));
            }
        }
        return removed.stream().map(List::copyOf).toList();
    }

    /** Whether a filter selects one of the user's ACLs; a user whose rules cannot be read has none in effect. */
    private static boolean selects(List<AclFilter> filters, KafkaUser user) {
        try {
            return UserAclRules.bindings(user).stream().anyMatch(b -> filters.stream().anyMatch(f -> f.matches(b)));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Replaces {@code user}'s bindings by what {@code change} makes of them, retrying on a conflicting write; creates
     * the KafkaUser when it is missing and {@code create} says so.
     */
    private void rewrite(String user, boolean create, Function<List<AclBinding>, List<AclBinding>> change) {
        users.edit(user, create, "ACLs", kafkaUser -> {
            List<AclBinding> before = UserAclRules.bindings(kafkaUser);
            List<AclBinding> after = change.apply(before);
            if (after.equals(before)) {
                return false;
            }
            authorization(kafkaUser).setAcls(UserAclRules.rules(after));
            return true;
        });
    }

    private static UserAuthorization authorization(KafkaUser user) {
        if (user.getSpec() == null) {
            user.setSpec(new KafkaUserSpec());
        }
        if (user.getSpec().getAuthorization() == null) {
            UserAuthorization authorization = new UserAuthorization();
            authorization.setType(AuthorizationType.SIMPLE);
            user.getSpec().setAuthorization(authorization);
        }
        return user.getSpec().getAuthorization();
    }
}
