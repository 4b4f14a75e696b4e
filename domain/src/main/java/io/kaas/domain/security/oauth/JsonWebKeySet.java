package io.kaas.domain.security.oauth;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An issuer's signing keys, from its JWKS document (RFC 7517, {@code {"keys":[...]}}), by key id. Only
 * what can verify an allowed algorithm is kept: RSA keys of at least 2048 bits and EC keys on P-256,
 * with a {@code kid}, not marked for encryption ({@code "use":"enc"}). Other entries are skipped, not
 * fatal: issuers publish keys for other purposes beside the signing ones.
 */
public final class JsonWebKeySet {
    /** RFC 7518 §3.3: an RSA key for RS256/384/512 must be at least 2048 bits. */
    private static final int MIN_RSA_BITS = 2048;
    private static final int P256_COORDINATE_BYTES = 32;

    /**
     * One verification key.
     *
     * @param algorithm the JWK's {@code alg}, when it pins one
     */
    public record SigningKey(String keyId, PublicKey key, Optional<JwsAlgorithm> algorithm) {
        /** Whether a token signed with {@code alg} may be verified with this key. */
        boolean verifies(JwsAlgorithm alg) {
            return key.getAlgorithm().equals(alg.keyType()) && algorithm.map(alg::equals).orElse(true);
        }
    }

    private final Map<String, SigningKey> byKeyId;

    private JsonWebKeySet(Map<String, SigningKey> byKeyId) {
        this.byKeyId = Map.copyOf(byKeyId);
    }

    /**
     * @throws IllegalArgumentException when the document is not a JWKS (no {@code keys} array)
     */
    public static JsonWebKeySet parse(Map<String, Object> document) {
        if (!(document.get("keys") instanceof List<?> keys)) {
            throw new IllegalArgumentException("not a JWKS document: no \"keys\" array");
        }
        Map<String, SigningKey> byKeyId = new LinkedHashMap<>();
        for (Object entry : keys) {
            if (entry instanceof Map<?, ?> jwk) {
                signingKey(jwk).ifPresent(key -> byKeyId.putIfAbsent(key.keyId(), key));
            }
        }
        return new JsonWebKeySet(byKeyId);
    }

    public Optional<SigningKey> key(String keyId) {
        return Optional.ofNullable(byKeyId.get(keyId));
    }

    public Set<String> keyIds() {
        return byKeyId.keySet();
    }

    private static Optional<SigningKey> signingKey(Map<?, ?> jwk) {
        if (!(jwk.get("kid") instanceof String kid) || "enc".equals(jwk.get("use"))) {
            return Optional.empty();
        }
        Optional<JwsAlgorithm> alg = Optional.empty();
        if (jwk.get("alg") != null) {
            alg = JwsAlgorithm.byName(String.valueOf(jwk.get("alg")));
            if (alg.isEmpty()) {
                return Optional.empty(); // pinned to an algorithm we never accept
            }
        }
        try {
            PublicKey key = switch (String.valueOf(jwk.get("kty"))) {
                case "RSA" -> rsa(jwk);
                case "EC" -> ec(jwk);
                default -> null;
            };
            return key == null ? Optional.empty() : Optional.of(new SigningKey(kid, key, alg));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static PublicKey rsa(Map<?, ?> jwk) throws GeneralSecurityException {
        RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(
                new RSAPublicKeySpec(unsigned(jwk, "n"), unsigned(jwk, "e")));
        return key.getModulus().bitLength() >= MIN_RSA_BITS ? key : null;
    }

    private static PublicKey ec(Map<?, ?> jwk) throws GeneralSecurityException {
        if (!"P-256".equals(jwk.get("crv"))) {
            return null;
        }
        byte[] x = bytes(jwk, "x");
        byte[] y = bytes(jwk, "y");
        if (x.length != P256_COORDINATE_BYTES || y.length != P256_COORDINATE_BYTES) {
            return null;
        }
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        ECParameterSpec p256 = parameters.getParameterSpec(ECParameterSpec.class);
        return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(
                new ECPoint(new BigInteger(1, x), new BigInteger(1, y)), p256));
    }

    private static BigInteger unsigned(Map<?, ?> jwk, String member) {
        return new BigInteger(1, bytes(jwk, member));
    }

    private static byte[] bytes(Map<?, ?> jwk, String member) {
        if (!(jwk.get(member) instanceof String value) || value.isEmpty()) {
            throw new IllegalArgumentException("no " + member);
        }
        return Base64.getUrlDecoder().decode(value);
    }
}
