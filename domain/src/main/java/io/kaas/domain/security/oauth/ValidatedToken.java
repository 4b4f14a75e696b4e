package io.kaas.domain.security.oauth;

import java.util.Objects;

/**
 * A bearer token that passed validation.
 *
 * @param principalName the user it speaks for (the {@code userNameClaim}, or its fallback)
 * @param expiresAtMs   its {@code exp}, in milliseconds since the epoch
 */
public record ValidatedToken(String principalName, long expiresAtMs) {
    public ValidatedToken {
        Objects.requireNonNull(principalName, "principalName");
    }
}
