package io.kaas.domain.security;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * One user in {@code credentials.json}: its SCRAM credentials by mechanism (none for a tls or an
 * authorization-only user) and its quotas. SASL/PLAIN verifies a password against either SCRAM
 * credential, so no password is ever stored.
 */
public record StoredUser(String name, Map<ScramMechanism, ScramCredential> scram, UserQuotas quotas) {
    public StoredUser {
        scram = scram.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(scram));
        quotas = quotas == null ? UserQuotas.NONE : quotas;
    }

    public Optional<ScramCredential> scram(ScramMechanism mechanism) {
        return Optional.ofNullable(scram.get(mechanism));
    }

    public StoredUser withScram(ScramMechanism mechanism, ScramCredential credential) {
        EnumMap<ScramMechanism, ScramCredential> next = new EnumMap<>(ScramMechanism.class);
        next.putAll(scram);
        next.put(mechanism, credential);
        return new StoredUser(name, next, quotas);
    }

    public StoredUser withoutScram(ScramMechanism mechanism) {
        EnumMap<ScramMechanism, ScramCredential> next = new EnumMap<>(ScramMechanism.class);
        next.putAll(scram);
        next.remove(mechanism);
        return new StoredUser(name, next, quotas);
    }

    public StoredUser withQuotas(UserQuotas quotas) {
        return new StoredUser(name, scram, quotas);
    }
}
