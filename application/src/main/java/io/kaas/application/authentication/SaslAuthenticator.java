package io.kaas.application.authentication;

import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.PlainServerExchange;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.ScramServerExchange;
import java.util.function.Supplier;

/** Starts SCRAM and PLAIN exchanges against the cached credentials, each SCRAM one with a fresh server nonce. */
public final class SaslAuthenticator implements SaslAuthenticationUseCase {
    private final CredentialCache credentials;
    private final Supplier<String> serverNonces;

    /**
     * @param serverNonces a fresh unpredictable nonce per call (RFC 5802: printable ASCII without commas); the
     *                     composition root draws them from a SecureRandom, tests from a counter
     */
    public SaslAuthenticator(CredentialCache credentials, Supplier<String> serverNonces) {
        this.credentials = credentials;
        this.serverNonces = serverNonces;
    }

    @Override
    public SaslServerExchange start(SaslMechanism mechanism) {
        if (mechanism == SaslMechanism.OAUTHBEARER) {
            throw new IllegalArgumentException("OAUTHBEARER validates tokens, not stored credentials");
        }
        return mechanism.scram()
                .<SaslServerExchange>map(scram -> new ScramServerExchange(scram, credentials.current(), serverNonces.get()))
                .orElseGet(() -> new PlainServerExchange(credentials.current()));
    }
}
