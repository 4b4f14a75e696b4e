package io.kaas.domain.security;

import java.util.Arrays;
import java.util.Optional;

/** The two SCRAM mechanisms Kafka speaks (RFC 5802 with SHA-256 / SHA-512, RFC 7677), by their SASL names. */
public enum ScramMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", "SHA-256", "HmacSHA256", "PBKDF2WithHmacSHA256", 256),
    SCRAM_SHA_512("SCRAM-SHA-512", "SHA-512", "HmacSHA512", "PBKDF2WithHmacSHA512", 512);

    /** Apache's floor for stored credentials; fewer is UNACCEPTABLE_CREDENTIAL. */
    public static final int MIN_ITERATIONS = 4096;
    /** Apache's ceiling (ScramMechanism.maxIterations). */
    public static final int MAX_ITERATIONS = 16384;

    private final String mechanismName;
    private final String hashAlgorithm;
    private final String macAlgorithm;
    private final String pbkdf2Algorithm;
    private final int keyBits;

    ScramMechanism(String mechanismName, String hashAlgorithm, String macAlgorithm, String pbkdf2Algorithm,
                   int keyBits) {
        this.mechanismName = mechanismName;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
        this.pbkdf2Algorithm = pbkdf2Algorithm;
        this.keyBits = keyBits;
    }

    /** The SASL mechanism name, as in SaslHandshake and credentials.json: {@code SCRAM-SHA-512}. */
    public String mechanismName() {
        return mechanismName;
    }

    public String hashAlgorithm() {
        return hashAlgorithm;
    }

    public String macAlgorithm() {
        return macAlgorithm;
    }

    String pbkdf2Algorithm() {
        return pbkdf2Algorithm;
    }

    int keyBits() {
        return keyBits;
    }

    public static Optional<ScramMechanism> byName(String mechanismName) {
        return Arrays.stream(values()).filter(m -> m.mechanismName.equals(mechanismName)).findFirst();
    }
}
