package io.kaas.application.authentication;

import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.domain.security.OAuthBearerServerExchange;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.oauth.InvalidTokenException;
import io.kaas.domain.security.oauth.JwtValidator;
import io.kaas.domain.security.oauth.ValidatedToken;

/**
 * Starts the OAUTHBEARER exchanges of one listener: tokens are validated locally against the issuer's keys
 * held in memory, so an exchange never waits on the network and runs on the connection's event loop. A
 * token naming an unknown key is refused and makes the cache fetch the keys again early: an issuer that
 * rotated its keys costs one refused attempt.
 */
public final class OAuthBearerAuthenticator implements SaslAuthenticationUseCase {
    private final JwtValidator validator;
    private final SigningKeyCache keys;
    private final Clock clock;

    public OAuthBearerAuthenticator(JwtValidator validator, SigningKeyCache keys, Clock clock) {
        this.validator = validator;
        this.keys = keys;
        this.clock = clock;
    }

    @Override
    public SaslServerExchange start(SaslMechanism mechanism) {
        if (mechanism != SaslMechanism.OAUTHBEARER) {
            throw new IllegalArgumentException("an OAuth listener only serves OAUTHBEARER, not " + mechanism);
        }
        return new OAuthBearerServerExchange(this::verify);
    }

    private ValidatedToken verify(String token) {
        try {
            return validator.validate(token, keys.current(), clock.nowMs());
        } catch (InvalidTokenException e) {
            e.unknownKeyId().ifPresent(keys::keyMissing);
            throw e;
        }
    }
}
