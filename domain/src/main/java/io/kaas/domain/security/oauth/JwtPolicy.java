package io.kaas.domain.security.oauth;

import java.util.Objects;
import java.util.Optional;

/**
 * What a listener demands of a token beyond its signature (Strimzi's field names in parentheses).
 *
 * @param issuer                the exact {@code iss} ({@code validIssuerUri})
 * @param audience              a value {@code aud} must be or contain; empty: {@code aud} is not checked
 * @param userNameClaim         the claim naming the principal ({@code userNameClaim}, default {@code sub})
 * @param fallbackUserNameClaim the claim tried when that one is absent ({@code fallbackUserNameClaim})
 * @param clockSkewMs           how far {@code exp} and {@code nbf} may be off the broker's clock
 */
public record JwtPolicy(String issuer, Optional<String> audience, String userNameClaim,
                        Optional<String> fallbackUserNameClaim, long clockSkewMs) {
    public JwtPolicy {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(userNameClaim, "userNameClaim");
        Objects.requireNonNull(fallbackUserNameClaim, "fallbackUserNameClaim");
        if (clockSkewMs < 0) {
            throw new IllegalArgumentException("clock skew must not be negative, got " + clockSkewMs);
        }
    }
}
