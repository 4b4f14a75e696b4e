package io.kaas.domain.security;

import java.util.Arrays;
import java.util.Optional;

/**
 * The SASL mechanisms a listener can enable, by their SASL names (what SaslHandshake carries). PLAIN
 * sends the password itself and OAUTHBEARER a bearer token, so they are only enabled on TLS listeners;
 * the SCRAM ones send proofs.
 */
public enum SaslMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", ScramMechanism.SCRAM_SHA_256),
    SCRAM_SHA_512("SCRAM-SHA-512", ScramMechanism.SCRAM_SHA_512),
    PLAIN("PLAIN", null),
    /** RFC 7628 (KIP-255): a signed JWT, validated against the issuer's published keys. */
    OAUTHBEARER("OAUTHBEARER", null);

    private final String mechanismName;
    private final ScramMechanism scram;

    SaslMechanism(String mechanismName, ScramMechanism scram) {
        this.mechanismName = mechanismName;
        this.scram = scram;
    }

    public String mechanismName() {
        return mechanismName;
    }

    /** The SCRAM variant, empty for PLAIN and OAUTHBEARER. */
    public Optional<ScramMechanism> scram() {
        return Optional.ofNullable(scram);
    }

    /**
     * Whether the client sends a reusable secret (the password, a bearer token), which only an encrypted
     * connection may carry.
     */
    public boolean sendsReusableSecret() {
        return scram == null;
    }

    public static Optional<SaslMechanism> byName(String mechanismName) {
        return Arrays.stream(values()).filter(m -> m.mechanismName.equals(mechanismName)).findFirst();
    }
}
