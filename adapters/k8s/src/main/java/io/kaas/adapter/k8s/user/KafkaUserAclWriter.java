package io.kaas.adapter.k8s.user;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.k8s.ArgoCdAnnotations;
import io.kaas.adapter.k8s.crd.AuthorizationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.UserAuthorization;
import io.kaas.application.port.out.AclWriter;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's ACL writes: each principal's ACLs are its KafkaUser's {@code spec.authorization.acls}, rewritten by a
 * read-modify-write the API server refuses (409) when anything wrote in between, and then read and applied again. The
 * operator rebuilds {@code acls.json} from every KafkaUser and the brokers reload it, so a change is in effect a reload
 * after the answer, as in Apache's KRaft cluster where brokers apply the controller's record after it commits. An ACL
 * for a principal with no KafkaUser creates one that carries only the ACLs (as Apache accepts an ACL for any
 * principal); removing ACLs never deletes a KafkaUser.
 */
public final class KafkaUserAclWriter implements AclWriter {
    /** Writes racing this broker's: beyond this many in a row, something keeps rewriting the resource. */
    private static final int CONFLICT_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaUserAclWriter.class);

    private final KubernetesClient client;
    private final String namespace;
    private final Optional<ArgoCdAnnotations> argoCd;

    /** @param argoCd the annotations every KafkaUser this broker creates carries, if any */
    public KafkaUserAclWriter(KubernetesClient client, String namespace, Optional<ArgoCdAnnotations> argoCd) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.argoCd = Objects.requireNonNull(argoCd, "argoCd");
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
        List<KafkaUser> users;
        try {
            users = new ArrayList<>(users().inNamespace(namespace).list().getItems());
        } catch (KubernetesClientException e) {
            throw failure("list", "", e);
        }
        users.sort(Comparator.comparing(user -> user.getMetadata().getName()));
        for (KafkaUser listed : users) {
            if (!selects(filters, listed)) {
                continue;
            }
            List<List<AclBinding>> fromUser = new ArrayList<>();
            rewrite(listed.getMetadata().getName(), false, current -> {
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
        for (int attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
            KafkaUser current;
            try {
                current = users().inNamespace(namespace).withName(user).get();
            } catch (KubernetesClientException e) {
                throw failure("read", user, e);
            }
            if (current == null && !create) {
                return;
            }
            List<AclBinding> before = current == null ? List.of() : UserAclRules.bindings(current);
            List<AclBinding> after = change.apply(before);
            if (after.equals(before)) {
                return;
            }
            KafkaUser next = current == null ? newUser(user) : current;
            authorization(next).setAcls(UserAclRules.rules(after));
            try {
                if (current == null) {
                    users().inNamespace(namespace).resource(next).create();
                    LOG.info("created KafkaUser {}/{} to hold the ACLs of User:{}", namespace, user, user);
                } else {
                    // Carries the resourceVersion read above: refused with 409 if anything wrote since.
                    users().inNamespace(namespace).resource(next).update();
                }
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw failure(current == null ? "create" : "update", user, e);
                }
                LOG.debug("KafkaUser {} changed while this broker wrote its ACLs; reading it again", user);
            }
        }
        throw new UncheckedIOException(new IOException("KafkaUser " + namespace + "/" + user + " changed under each of "
                + CONFLICT_ATTEMPTS + " attempts to write its ACLs"));
    }

    private KafkaUser newUser(String name) {
        KafkaUser user = new KafkaUser();
        user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .withAnnotations(argoCd.map(a -> a.of(namespace, name)).orElse(null)).build());
        user.setSpec(new KafkaUserSpec());
        return user;
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

    private MixedOperation<KafkaUser, KubernetesResourceList<KafkaUser>, Resource<KafkaUser>> users() {
        return client.resources(KafkaUser.class);
    }

    private UncheckedIOException failure(String operation, String user, KubernetesClientException e) {
        int code = e.getCode();
        return new UncheckedIOException(new IOException(operation + " KafkaUser " + namespace
                + (user.isEmpty() ? "" : "/" + user) + ": " + (code > 0 ? "HTTP " + code + " " : "no response: ")
                + e.getMessage(), e));
    }
}
