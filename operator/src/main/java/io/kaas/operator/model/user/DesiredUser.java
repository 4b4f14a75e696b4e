package io.kaas.operator.model.user;

import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.SecretKeyReference;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.adapter.k8s.user.UserQuotaFields;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import io.kaas.operator.model.Refusal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * A KafkaUser's spec, checked: how it authenticates, its quotas, and (checked here, materialised by {@link UserAcls})
 * its ACLs. {@link #entry} turns it into the user's {@code credentials.json} entry.
 *
 * @param name   {@code metadata.name}: the principal's name and the entry's key. A tls user's too: kaas maps a client
 *               certificate to its CN (KIP-371 DEFAULT, kaas's deviation), which names the KafkaUser.
 * @param login  how it authenticates
 * @param quotas Apache's quota names
 * @param additionalScram a SCRAM login's pre-derived credential for the other mechanism, if any
 */
public record DesiredUser(String name, Login login, UserQuotas quotas, Optional<ScramCredential> additionalScram) {
    /** Apache's floor, which Strimzi derives with too. */
    public static final int ITERATIONS = ScramMechanism.MIN_ITERATIONS;
    /** Salt per derivation, as long as the SHA-256 hash (RFC 5802 asks only that it be random). */
    static final int SALT_BYTES = 32;
    private static final SecureRandom SALTS = new SecureRandom();

    /** How a user authenticates, which decides what its entry holds. */
    public sealed interface Login permits AuthorizationOnly, Tls, ScramPassword, ScramPreDerived {
    }

    /** No {@code spec.authentication}: an OAuth principal; an entry only to carry quotas. */
    public record AuthorizationOnly() implements Login {
    }

    /** A client certificate whose CN is the user's name: an entry without a SCRAM credential. */
    public record Tls() implements Login {
    }

    /**
     * A SCRAM credential derived from a password.
     *
     * @param secret the Secret key holding the password; empty: {@code <user>-kafka-credentials}, generated
     */
    public record ScramPassword(ScramMechanism mechanism, Optional<SecretKeyReference> secret) implements Login {
    }

    /** {@code spec.authentication.scram}: a credential derived elsewhere, stored as given. */
    public record ScramPreDerived(ScramMechanism mechanism, ScramCredential credential) implements Login {
    }

    /** The outcome of checking a spec. */
    public sealed interface Check permits Valid, Invalid {
    }

    public record Valid(DesiredUser user) implements Check {
    }

    public record Invalid(Refusal refusal) implements Check {
    }

    /** Checks what the API server cannot: ACLs kaas can express, a well-formed credential or password reference. */
    public static Check of(KafkaUser resource) {
        if (UserAcls.of(resource) instanceof UserAcls.Invalid invalid) {
            return new Invalid(invalid.why());
        }
        KafkaUserSpec spec = resource.getSpec();
        String name = resource.getMetadata().getName();
        UserQuotas quotas = UserQuotaFields.quotas(spec == null ? null : spec.getQuotas());
        UserAuthentication authentication = spec == null ? null : spec.getAuthentication();
        if (authentication == null) {
            return new Valid(new DesiredUser(name, new AuthorizationOnly(), quotas, Optional.empty()));
        }
        if (authentication.getType() == null) {
            return invalid("spec.authentication.type is required: scram-sha-512, scram-sha-256 or tls");
        }
        if (authentication.getType() == AuthenticationType.TLS) {
            return authentication.getAdditionalScram() == null
                    ? new Valid(new DesiredUser(name, new Tls(), quotas, Optional.empty()))
                    : invalid("spec.authentication.additionalScram needs a scram-sha-512 or scram-sha-256 type");
        }
        ScramMechanism mechanism = authentication.getType() == AuthenticationType.SCRAM_SHA_256
                ? ScramMechanism.SCRAM_SHA_256 : ScramMechanism.SCRAM_SHA_512;
        ScramMechanism other = otherThan(mechanism);
        Optional<ScramCredential> additional = Optional.empty();
        if (authentication.getAdditionalScram() != null) {
            additional = preDerived(authentication.getAdditionalScram(), other);
            if (additional.isEmpty()) {
                return invalidCredential("spec.authentication.additionalScram", other);
            }
        }
        Optional<ScramCredential> additionalScram = additional;
        if (authentication.getScram() != null) {
            // The rotation path (AlterUserScramCredentials, or by hand): it wins over a password source.
            return preDerived(authentication.getScram(), mechanism)
                    .<Check>map(credential -> new Valid(new DesiredUser(name, new ScramPreDerived(mechanism, credential),
                            quotas, additionalScram)))
                    .orElseGet(() -> invalidCredential("spec.authentication.scram", mechanism));
        }
        if (authentication.getPassword() == null) {
            return new Valid(new DesiredUser(name, new ScramPassword(mechanism, Optional.empty()), quotas,
                    additionalScram));
        }
        SecretKeyReference ref = authentication.getPassword().getValueFrom() == null ? null
                : authentication.getPassword().getValueFrom().getSecretKeyRef();
        if (ref == null || blank(ref.getName()) || blank(ref.getKey())) {
            return invalid("spec.authentication.password.valueFrom.secretKeyRef needs a name and a key");
        }
        return new Valid(new DesiredUser(name, new ScramPassword(mechanism, Optional.of(ref)), quotas,
                additionalScram));
    }

    /**
     * The user's {@code credentials.json} entry, or none (an authorization-only user without quotas).
     *
     * @param current  its entry on the volume now
     * @param password for a {@link ScramPassword} login, the password; its credential on the volume is kept while the
     *                 password still derives it, so a reconcile does not rotate the salt and rewrite the file
     */
    public Optional<StoredUser> entry(Optional<StoredUser> current, Optional<String> password) {
        if (login instanceof ScramPreDerived given) {
            return Optional.of(withAdditional(new StoredUser(name, Map.of(given.mechanism(), given.credential()),
                    quotas)));
        }
        if (login instanceof ScramPassword scram) {
            String secret = password.orElseThrow(() -> new IllegalArgumentException(
                    "a password login is materialised with its password"));
            ScramCredential credential = current.flatMap(user -> user.scram(scram.mechanism()))
                    .filter(stored -> stored.matches(scram.mechanism(), secret))
                    .orElseGet(() -> ScramCredential.derive(scram.mechanism(), secret, salt(), ITERATIONS));
            return Optional.of(withAdditional(new StoredUser(name, Map.of(scram.mechanism(), credential), quotas)));
        }
        if (login instanceof AuthorizationOnly && quotas.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StoredUser(name, Map.of(), quotas)); // tls, or authorization-only with quotas
    }

    private StoredUser withAdditional(StoredUser entry) {
        return additionalScram.map(credential -> entry.withScram(otherThan(entry.scram().keySet().iterator().next()),
                credential)).orElse(entry);
    }

    private static ScramMechanism otherThan(ScramMechanism mechanism) {
        return mechanism == ScramMechanism.SCRAM_SHA_256 ? ScramMechanism.SCRAM_SHA_512 : ScramMechanism.SCRAM_SHA_256;
    }

    private static byte[] salt() {
        byte[] salt = new byte[SALT_BYTES];
        SALTS.nextBytes(salt);
        return salt;
    }

    private static Optional<ScramCredential> preDerived(io.kaas.adapter.k8s.crd.ScramCredential scram,
                                                        ScramMechanism mechanism) {
        Integer iterations = scram.getIterations();
        if (iterations == null || iterations < ScramMechanism.MIN_ITERATIONS
                || iterations > ScramMechanism.MAX_ITERATIONS) {
            return Optional.empty();
        }
        if (scram.getSalt() == null || scram.getStoredKey() == null || scram.getServerKey() == null) {
            return Optional.empty();
        }
        try {
            Base64.Decoder b64 = Base64.getDecoder();
            byte[] salt = b64.decode(scram.getSalt());
            byte[] storedKey = b64.decode(scram.getStoredKey());
            byte[] serverKey = b64.decode(scram.getServerKey());
            int keyLength = digestLength(mechanism);
            if (salt.length == 0 || storedKey.length != keyLength || serverKey.length != keyLength) {
                return Optional.empty();
            }
            return Optional.of(new ScramCredential(salt, storedKey, serverKey, iterations));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }

    private static int digestLength(ScramMechanism mechanism) {
        try {
            return MessageDigest.getInstance(mechanism.hashAlgorithm()).getDigestLength();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm() + " is part of every Java 17 runtime", e);
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Check invalidCredential(String field, ScramMechanism mechanism) {
        return invalid(field + " is not a " + mechanism.mechanismName() + " credential: base64 salt, storedKey and "
                + "serverKey of " + digestLength(mechanism) + " bytes, and " + ScramMechanism.MIN_ITERATIONS + " to "
                + ScramMechanism.MAX_ITERATIONS + " iterations");
    }

    private static Check invalid(String message) {
        return new Invalid(new Refusal(Refusal.INVALID_CREDENTIAL, message));
    }
}
