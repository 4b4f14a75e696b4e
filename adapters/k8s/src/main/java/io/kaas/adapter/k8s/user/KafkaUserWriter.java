package io.kaas.adapter.k8s.user;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.ArgoCdAnnotations;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.application.port.out.UserWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.UserQuotas;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A cluster's SCRAM and quota writes: each user's KafkaUser {@code spec.authentication} and {@code spec.quotas},
 * rewritten by the read-modify-write with 409 retry ACL writes use. The operator rewrites {@code credentials.json}
 * from every KafkaUser and the brokers reload it, so a change is in effect a reload after the answer. As Apache
 * accepts credentials and quotas for any user, a user with no KafkaUser gets one holding only them; a KafkaUser left
 * with nothing is kept (an authorization-only user with no entry in {@code credentials.json}), never deleted.
 *
 * <p>SCRAM: {@code type} names the first mechanism and {@code scram} its credential, {@code additionalScram} the
 * other's. Setting a credential replaces a password source of the same mechanism; deleting the last credential
 * removes {@code spec.authentication}, so the user can no longer log in with SCRAM, as in Apache. A tls user given a
 * SCRAM credential becomes a SCRAM user.
 */
public final class KafkaUserWriter implements UserWriter {
    private final KafkaUserEditor users;

    /** @param argoCd the annotations every KafkaUser this broker creates carries, if any */
    public KafkaUserWriter(KubernetesClient client, String namespace, Optional<ArgoCdAnnotations> argoCd) {
        this.users = new KafkaUserEditor(client, namespace, argoCd);
    }

    @Override
    public Optional<String> refusal(String user) {
        return UserAclRules.isResourceName(user) ? Optional.empty() : Optional.of("In a cluster users are KafkaUser "
                + "resources, and " + user + " cannot name one (a lowercase RFC 1123 subdomain)");
    }

    @Override
    public Map<String, Refusal> alterScram(Map<String, ScramChange> changes) {
        Map<String, Refusal> refused = new LinkedHashMap<>();
        changes.forEach((user, change) -> users.edit(user, true, "SCRAM credentials",
                kafkaUser -> {
                    refused.remove(user);
                    UserAuthentication current = spec(kafkaUser).getAuthentication();
                    var held = UserScramFields.held(current);
                    if (!held.keySet().containsAll(change.deleted())) {
                        refused.put(user, new Refusal(KafkaError.RESOURCE_NOT_FOUND,
                                "Attempt to delete a user credential that does not exist"));
                        return false;
                    }
                    change.deleted().forEach(held::remove);
                    change.upserted().forEach((mechanism, credential) ->
                            held.put(mechanism, Optional.of(UserScramFields.field(credential))));
                    spec(kafkaUser).setAuthentication(UserScramFields.authentication(held, current));
                    return true;
                }));
        return refused;
    }

    @Override
    public void alterQuotas(Map<String, UnaryOperator<UserQuotas>> changes) {
        changes.forEach((user, change) -> users.edit(user, true, "quotas", kafkaUser -> {
            UserQuotas before = UserQuotaFields.quotas(spec(kafkaUser).getQuotas());
            UserQuotas after = change.apply(before);
            if (Objects.equals(before, after)) {
                return false;
            }
            spec(kafkaUser).setQuotas(UserQuotaFields.fields(after));
            return true;
        }));
    }

    private static KafkaUserSpec spec(KafkaUser user) {
        if (user.getSpec() == null) {
            user.setSpec(new KafkaUserSpec());
        }
        return user.getSpec();
    }
}
