package io.kaas.adapter.k8s.user;

import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A KafkaUser's SCRAM credentials in {@code spec.authentication}: {@code type} names the first mechanism, whose
 * credential is {@code scram} (pre-derived) or derived by the operator from {@code password}; {@code additionalScram}
 * is the other mechanism's, pre-derived.
 */
final class UserScramFields {
    private UserScramFields() {
    }

    /**
     * The mechanisms {@code authentication} holds a credential for, first mechanism first; a credential the operator
     * derives from a password is empty.
     */
    static Map<ScramMechanism, Optional<io.kaas.adapter.k8s.crd.ScramCredential>> held(UserAuthentication authentication) {
        Map<ScramMechanism, Optional<io.kaas.adapter.k8s.crd.ScramCredential>> held = new LinkedHashMap<>();
        Optional<ScramMechanism> first = authentication == null ? Optional.empty() : mechanism(authentication.getType());
        first.ifPresent(mechanism -> {
            held.put(mechanism, Optional.ofNullable(authentication.getScram()));
            if (authentication.getAdditionalScram() != null) {
                held.put(other(mechanism), Optional.of(authentication.getAdditionalScram()));
            }
        });
        return held;
    }

    /**
     * The authentication holding {@code held}: none when it is empty; {@code current}'s password source is kept only
     * while the first mechanism's credential still comes from it.
     */
    static UserAuthentication authentication(Map<ScramMechanism, Optional<io.kaas.adapter.k8s.crd.ScramCredential>> held,
                                             UserAuthentication current) {
        if (held.isEmpty()) {
            return null;
        }
        var entries = held.entrySet().iterator();
        var first = entries.next();
        UserAuthentication next = new UserAuthentication();
        next.setType(first.getKey() == ScramMechanism.SCRAM_SHA_256 ? AuthenticationType.SCRAM_SHA_256
                : AuthenticationType.SCRAM_SHA_512);
        next.setScram(first.getValue().orElse(null));
        if (first.getValue().isEmpty() && current != null) {
            next.setPassword(current.getPassword());
        }
        if (entries.hasNext()) {
            next.setAdditionalScram(entries.next().getValue().orElseThrow(() -> new IllegalStateException(
                    "only the first mechanism's credential may come from a password")));
        }
        return next;
    }

    static io.kaas.adapter.k8s.crd.ScramCredential field(ScramCredential credential) {
        Base64.Encoder b64 = Base64.getEncoder();
        io.kaas.adapter.k8s.crd.ScramCredential field = new io.kaas.adapter.k8s.crd.ScramCredential();
        field.setSalt(b64.encodeToString(credential.salt()));
        field.setIterations(credential.iterations());
        field.setStoredKey(b64.encodeToString(credential.storedKey()));
        field.setServerKey(b64.encodeToString(credential.serverKey()));
        return field;
    }

    private static Optional<ScramMechanism> mechanism(AuthenticationType type) {
        if (type == AuthenticationType.SCRAM_SHA_256) {
            return Optional.of(ScramMechanism.SCRAM_SHA_256);
        }
        return type == AuthenticationType.SCRAM_SHA_512 ? Optional.of(ScramMechanism.SCRAM_SHA_512) : Optional.empty();
    }

    static ScramMechanism other(ScramMechanism mechanism) {
        return mechanism == ScramMechanism.SCRAM_SHA_256 ? ScramMechanism.SCRAM_SHA_512 : ScramMechanism.SCRAM_SHA_256;
    }
}
