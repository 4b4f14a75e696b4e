package io.kaas.application.authentication;

import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.PlainServerExchange;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.ScramServerExchange;
import java.math.BigInteger;
import java.security.SecureRandom;

/** Starts SCRAM and PLAIN exchanges against the cached credentials, each SCRAM one with a fresh server nonce. */
public final class SaslAuthenticator implements SaslAuthenticationUseCase {
    private static final int NONCE_BITS = 130;

    private final CredentialCache credentials;
    private final SecureRandom random = new SecureRandom();

    public SaslAuthenticator(CredentialCache credentials) {
        this.credentials = credentials;
    }

    @Override
    public SaslServerExchange start(SaslMechanism mechanism) {
        return mechanism.scram()
                .<SaslServerExchange>map(scram -> new ScramServerExchange(scram, credentials.current(), nonce()))
                .orElseGet(() -> new PlainServerExchange(credentials.current()));
    }

    /** As Apache's ScramFormatter: 130 random bits in base 36, printable and comma-free as RFC 5802 wants. */
    private String nonce() {
        return new BigInteger(NONCE_BITS, random).toString(Character.MAX_RADIX);
    }
}
