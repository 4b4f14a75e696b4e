package io.kaas.domain.security.oauth;

/** Checks a bearer token against the keys and policy of one listener, at the current time. */
@FunctionalInterface
public interface BearerTokenVerifier {

    /** @throws InvalidTokenException when the token is not accepted, with why */
    ValidatedToken verify(String token);
}
