package io.kaas.domain.security;

import java.util.OptionalLong;

/**
 * The server side of one SASL authentication on one connection: fed each client token in turn, it
 * answers the next challenge until {@link #isComplete()}. A failed step throws
 * {@link SaslAuthenticationFailure} and the exchange is over.
 */
public interface SaslServerExchange {

    SaslMechanism mechanism();

    /**
     * Evaluates the client's next token.
     *
     * @return the server's answer (empty when the mechanism has nothing to say)
     * @throws SaslAuthenticationFailure when the client is not who it claims, or breaks the mechanism's protocol
     */
    byte[] evaluate(byte[] clientToken);

    boolean isComplete();

    /**
     * The user the client authenticated as, once complete.
     *
     * @throws IllegalStateException before completion
     */
    String authenticatedUser();

    /**
     * When the credential the client authenticated with stops being valid (a bearer token's {@code exp}), in
     * milliseconds since the epoch; empty for credentials that do not expire (SCRAM, PLAIN). Bounds the
     * session a completed exchange opens (KIP-368).
     */
    default OptionalLong credentialExpiresAtMs() {
        return OptionalLong.empty();
    }
}
