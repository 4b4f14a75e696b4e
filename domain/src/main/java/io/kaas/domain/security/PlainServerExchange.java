package io.kaas.domain.security;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The server side of SASL/PLAIN (RFC 4616) as Apache's PlainSaslServer runs it: one message,
 * {@code authzid NUL authcid NUL password}, verified against the user's stored SCRAM credential (no
 * password is stored; SCRAM-SHA-512's is preferred when the user has both). An authorization id must
 * be empty or the user. Only enabled on TLS listeners: the password travels in the message.
 */
public final class PlainServerExchange implements SaslServerExchange {
    private final Credentials credentials;
    private String user;
    private boolean done;

    public PlainServerExchange(Credentials credentials) {
        this.credentials = Objects.requireNonNull(credentials);
    }

    @Override
    public SaslMechanism mechanism() {
        return SaslMechanism.PLAIN;
    }

    @Override
    public byte[] evaluate(byte[] clientToken) {
        if (done) {
            throw new SaslAuthenticationFailure("Authentication failed: Unexpected SASL/PLAIN message",
                    "a second PLAIN message");
        }
        done = true;
        String[] tokens = new String(clientToken, StandardCharsets.UTF_8).split("\u0000", -1);
        if (tokens.length != 3) {
            throw new SaslAuthenticationFailure("Invalid SASL/PLAIN response: expected 3 tokens, got " + tokens.length,
                    "malformed PLAIN message");
        }
        String authzid = tokens[0];
        String username = tokens[1];
        String password = tokens[2];
        if (username.isEmpty()) {
            throw new SaslAuthenticationFailure("Authentication failed: username not specified", "no PLAIN username");
        }
        if (password.isEmpty()) {
            throw new SaslAuthenticationFailure("Authentication failed: password not specified",
                    "no PLAIN password for " + username);
        }
        Optional<StoredUser> stored = credentials.user(username);
        Optional<ScramCredential> sha512 = stored.flatMap(u -> u.scram(ScramMechanism.SCRAM_SHA_512));
        boolean authenticated = sha512.isPresent()
                ? sha512.get().matches(ScramMechanism.SCRAM_SHA_512, password)
                : stored.flatMap(u -> u.scram(ScramMechanism.SCRAM_SHA_256))
                        .map(c -> c.matches(ScramMechanism.SCRAM_SHA_256, password)).orElse(false);
        if (!authenticated) {
            throw new SaslAuthenticationFailure("Authentication failed: Invalid username or password",
                    stored.isEmpty() ? "unknown PLAIN user " + username : "wrong PLAIN password for " + username);
        }
        if (!authzid.isEmpty() && !authzid.equals(username)) {
            throw new SaslAuthenticationFailure(
                    "Authentication failed: Client requested an authorization id that is different from username",
                    username + " asked to act as " + authzid);
        }
        user = username;
        return new byte[0];
    }

    @Override
    public boolean isComplete() {
        return user != null;
    }

    @Override
    public String authenticatedUser() {
        if (user == null) {
            throw new IllegalStateException("the PLAIN exchange is not complete");
        }
        return user;
    }
}
