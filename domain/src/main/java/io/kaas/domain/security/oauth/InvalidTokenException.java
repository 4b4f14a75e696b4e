package io.kaas.domain.security.oauth;

import java.util.Optional;

/**
 * A bearer token refused. The reason is for the broker log only: the client is told
 * {@code {"status":"invalid_token"}}, whatever the reason (RFC 7628, as Apache answers).
 */
public final class InvalidTokenException extends RuntimeException {
    private final String unknownKeyId;

    public InvalidTokenException(String reason) {
        this(reason, null);
    }

    private InvalidTokenException(String reason, String unknownKeyId) {
        super(reason, null, false, false);
        this.unknownKeyId = unknownKeyId;
    }

    /** The token names a key the current key set does not hold: the issuer may have rotated its keys. */
    public static InvalidTokenException unknownKey(String keyId) {
        return new InvalidTokenException("no signing key with kid " + keyId + " in the JWKS", keyId);
    }

    public Optional<String> unknownKeyId() {
        return Optional.ofNullable(unknownKeyId);
    }
}
