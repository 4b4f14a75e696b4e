package io.kaas.domain.security.oauth;

import java.util.Arrays;
import java.util.Optional;

/**
 * The JWS {@code alg} values a token may be signed with: an allowlist, never the token's word alone.
 * {@code none} and the HMAC family are absent on purpose: an HS256 token "signed" with the issuer's
 * public key bytes would otherwise pass (algorithm confusion).
 */
public enum JwsAlgorithm {
    RS256("SHA256withRSA", "RSA"),
    RS384("SHA384withRSA", "RSA"),
    RS512("SHA512withRSA", "RSA"),
    /**
     * ECDSA on P-256 with SHA-256. A JWS carries the signature as the raw {@code r || s} pair (RFC 7518
     * §3.4), the JDK's "P1363 format", not the DER sequence its plain {@code SHA256withECDSA} expects.
     */
    ES256("SHA256withECDSAinP1363Format", "EC");

    private final String jdkSignature;
    private final String keyType;

    JwsAlgorithm(String jdkSignature, String keyType) {
        this.jdkSignature = jdkSignature;
        this.keyType = keyType;
    }

    /** The {@link java.security.Signature} algorithm that verifies it. */
    public String jdkSignature() {
        return jdkSignature;
    }

    /** The JWK {@code kty} (and JDK key algorithm) a verification key must have. */
    public String keyType() {
        return keyType;
    }

    public static Optional<JwsAlgorithm> byName(String alg) {
        return Arrays.stream(values()).filter(a -> a.name().equals(alg)).findFirst();
    }
}
