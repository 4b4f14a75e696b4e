package io.kaas.application.authentication;

import io.kaas.application.port.out.UserWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Standalone's user writes: one read-modify-write of {@code credentials.json} per request through the cache, so the
 * broker authenticates with the result as soon as it is durable.
 */
public final class StoredUserWriter implements UserWriter {
    private final CredentialCache credentials;

    public StoredUserWriter(CredentialCache credentials) {
        this.credentials = credentials;
    }

    @Override
    public Map<String, Refusal> alterScram(Map<String, ScramChange> changes) {
        Map<String, Refusal> refused = new LinkedHashMap<>();
        credentials.update(current -> {
            Map<String, StoredUser> users = new TreeMap<>(current.users());
            changes.forEach((name, change) -> {
                Optional<StoredUser> before = Optional.ofNullable(users.get(name));
                if (change.deleted().stream().anyMatch(m -> before.flatMap(u -> u.scram(m)).isEmpty())) {
                    refused.put(name, new Refusal(KafkaError.RESOURCE_NOT_FOUND,
                            "Attempt to delete a user credential that does not exist"));
                    return;
                }
                StoredUser user = before.orElseGet(() -> new StoredUser(name, Map.of(), null));
                for (var mechanism : change.deleted()) {
                    user = user.withoutScram(mechanism);
                }
                for (var upserted : change.upserted().entrySet()) {
                    user = user.withScram(upserted.getKey(), upserted.getValue());
                }
                put(users, user);
            });
            return new Credentials(users);
        });
        return refused;
    }

    @Override
    public void alterQuotas(Map<String, UnaryOperator<UserQuotas>> changes) {
        credentials.update(current -> {
            Map<String, StoredUser> users = new TreeMap<>(current.users());
            changes.forEach((name, change) -> {
                StoredUser user = users.getOrDefault(name, new StoredUser(name, Map.of(), null));
                put(users, user.withQuotas(change.apply(user.quotas())));
            });
            return new Credentials(users);
        });
    }

    /** A user left with neither credentials nor quotas is gone, as in Apache. */
    private static void put(Map<String, StoredUser> users, StoredUser user) {
        if (user.scram().isEmpty() && user.quotas().isEmpty()) {
            users.remove(user.name());
        } else {
            users.put(user.name(), user);
        }
    }
}
