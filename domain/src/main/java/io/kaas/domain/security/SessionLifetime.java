package io.kaas.domain.security;

import java.util.OptionalLong;

/**
 * How long an authenticated SASL session may last before the client must re-authenticate (KIP-368), as
 * Apache's SaslServerAuthenticator computes it: the broker's {@code connections.max.reauth.ms} when set
 * (positive), bounded by when the credential expires when it does (a bearer token's {@code exp});
 * neither: the session never expires. A credential already expired gives a lifetime of 0.
 */
public final class SessionLifetime {

    private SessionLifetime() {
    }

    /**
     * @param connectionsMaxReauthMs the broker's bound; 0 or less: none
     * @param credentialExpiresAtMs  when the credential stops being valid, if it does
     * @return the lifetime in milliseconds, empty when the session does not expire
     */
    public static OptionalLong of(long connectionsMaxReauthMs, OptionalLong credentialExpiresAtMs, long nowMs) {
        boolean bounded = connectionsMaxReauthMs > 0;
        if (credentialExpiresAtMs.isEmpty()) {
            return bounded ? OptionalLong.of(connectionsMaxReauthMs) : OptionalLong.empty();
        }
        long remaining = Math.max(0, credentialExpiresAtMs.getAsLong() - nowMs);
        return OptionalLong.of(bounded ? Math.min(remaining, connectionsMaxReauthMs) : remaining);
    }
}
