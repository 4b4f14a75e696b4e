package io.kaas.domain.security;

import java.util.Arrays;
import java.util.Optional;

/**
 * The SASL mechanisms a listener can enable, by their SASL names (what SaslHandshake carries). PLAIN
 * sends the password itself, so it is only enabled on TLS listeners; the SCRAM ones send proofs.
 */
public enum SaslMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", ScramMechanism.SCRAM_SHA_256),
    SCRAM_SHA_512("SCRAM-SHA-512", ScramMechanism.SCRAM_SHA_512),
    PLAIN("PLAIN", null);

    private final String mechanismName;
    private final ScramMechanism scram;

    SaslMechanism(String mechanismName, ScramMechanism scram) {
        this.mechanismName = mechanismName;
        this.scram = scram;
    }

    public String mechanismName() {
        return mechanismName;
    }

    /** The SCRAM variant, empty for PLAIN. */
    public Optional<ScramMechanism> scram() {
        return Optional.ofNullable(scram);
    }

    /** Whether the client sends a reusable secret (the password), which only an encrypted connection may carry. */
    public boolean sendsReusableSecret() {
        return scram == null;
    }

    public static Optional<SaslMechanism> byName(String mechanismName) {
        return Arrays.stream(values()).filter(m -> m.mechanismName.equals(mechanismName)).findFirst();
    }
}
