package io.kaas.domain.security.oauth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Validates a compact JWS (RFC 7515/7519) the way a broker must before it trusts a bearer token: the
 * header's {@code alg} is on the {@link JwsAlgorithm} allowlist and its {@code kid} names a key of the
 * issuer's set that fits that algorithm, the signature verifies, {@code exp} (required) and {@code nbf}
 * hold within the clock skew, {@code iss} is exactly the issuer, {@code aud} holds the audience when one
 * is required, and the user-name claim (or its fallback) is a non-empty string. A header with
 * {@code crit} is refused: no extension is understood. Deterministic: the time is an argument.
 */
public final class JwtValidator {
    private final JwtPolicy policy;
    private final JsonObjectReader json;

    public JwtValidator(JwtPolicy policy, JsonObjectReader json) {
        this.policy = Objects.requireNonNull(policy);
        this.json = Objects.requireNonNull(json);
    }

    /**
     * @param keys  the issuer's current keys; null before they were first fetched, which refuses every token
     *              (fail closed)
     * @param nowMs the broker's clock
     * @throws InvalidTokenException with the reason, {@link InvalidTokenException#unknownKeyId()} set when only
     *                               the key was missing
     */
    public ValidatedToken validate(String token, JsonWebKeySet keys, long nowMs) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw new InvalidTokenException("not a signed JWT (expected header.payload.signature)");
        }
        Map<String, Object> header = object(parts[0], "header");
        Object algName = header.get("alg");
        JwsAlgorithm alg = JwsAlgorithm.byName(String.valueOf(algName)).orElseThrow(() ->
                new InvalidTokenException("alg " + algName + " is not allowed (allowed: RS256, RS384, RS512, ES256)"));
        if (header.containsKey("crit")) {
            throw new InvalidTokenException("the header names critical extensions: " + header.get("crit"));
        }
        if (!(header.get("kid") instanceof String kid)) {
            throw new InvalidTokenException("the header names no key (kid)");
        }
        if (keys == null) {
            throw new InvalidTokenException("no signing keys yet: the JWKS has not been fetched successfully");
        }
        JsonWebKeySet.SigningKey key = keys.key(kid).orElseThrow(() -> InvalidTokenException.unknownKey(kid));
        if (!key.verifies(alg)) {
            throw new InvalidTokenException("key " + kid + " cannot verify " + alg);
        }
        verifySignature(alg, key, parts);
        return claims(object(parts[1], "payload"), nowMs);
    }

    private static void verifySignature(JwsAlgorithm alg, JsonWebKeySet.SigningKey key, String[] parts) {
        boolean valid;
        try {
            Signature signature = Signature.getInstance(alg.jdkSignature());
            signature.initVerify(key.key());
            signature.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            valid = signature.verify(base64Url(parts[2], "signature"));
        } catch (GeneralSecurityException e) {
            throw new InvalidTokenException("the signature does not verify: " + e.getMessage());
        }
        if (!valid) {
            throw new InvalidTokenException("the signature does not verify with key " + key.keyId());
        }
    }

    private ValidatedToken claims(Map<String, Object> claims, long nowMs) {
        long expiresAtMs = instantMs(claims, "exp")
                .orElseThrow(() -> new InvalidTokenException("the token has no exp"));
        if (nowMs - policy.clockSkewMs() > expiresAtMs) {
            throw new InvalidTokenException("the token expired at " + expiresAtMs + " (now " + nowMs + ")");
        }
        Optional<Long> notBeforeMs = instantMs(claims, "nbf");
        if (notBeforeMs.isPresent() && nowMs + policy.clockSkewMs() < notBeforeMs.get()) {
            throw new InvalidTokenException("the token is not valid before " + notBeforeMs.get() + " (now " + nowMs + ")");
        }
        if (!policy.issuer().equals(claims.get("iss"))) {
            throw new InvalidTokenException("iss " + claims.get("iss") + " is not " + policy.issuer());
        }
        policy.audience().ifPresent(audience -> {
            Object aud = claims.get("aud");
            boolean holds = aud instanceof List<?> list ? list.contains(audience) : audience.equals(aud);
            if (!holds) {
                throw new InvalidTokenException("aud " + aud + " does not hold " + audience);
            }
        });
        String principal = userName(claims, policy.userNameClaim())
                .or(() -> policy.fallbackUserNameClaim().flatMap(fallback -> userName(claims, fallback)))
                .orElseThrow(() -> new InvalidTokenException("no user name in claim " + policy.userNameClaim()
                        + policy.fallbackUserNameClaim().map(f -> " or " + f).orElse("")));
        return new ValidatedToken(principal, expiresAtMs);
    }

    private static Optional<String> userName(Map<String, Object> claims, String claim) {
        return claims.get(claim) instanceof String name && !name.isBlank() ? Optional.of(name) : Optional.empty();
    }

    /** A NumericDate claim (seconds since the epoch, possibly fractional) in milliseconds. */
    private static Optional<Long> instantMs(Map<String, Object> claims, String claim) {
        Object value = claims.get(claim);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof Number seconds)) {
            throw new InvalidTokenException(claim + " is not a number: " + value);
        }
        return Optional.of((long) (seconds.doubleValue() * 1000));
    }

    private Map<String, Object> object(String part, String what) {
        try {
            return json.read(base64Url(part, what));
        } catch (IllegalArgumentException e) {
            throw new InvalidTokenException("the " + what + " is not a JSON object");
        }
    }

    private static byte[] base64Url(String part, String what) {
        try {
            return Base64.getUrlDecoder().decode(part);
        } catch (IllegalArgumentException e) {
            throw new InvalidTokenException("the " + what + " is not base64url");
        }
    }
}
