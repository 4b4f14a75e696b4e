package io.kaas.domain.security;

import io.kaas.domain.security.oauth.BearerTokenVerifier;
import io.kaas.domain.security.oauth.InvalidTokenException;
import io.kaas.domain.security.oauth.ValidatedToken;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The server side of SASL/OAUTHBEARER (RFC 7628, KIP-255) as Apache's OAuthBearerSaslServer runs it. The
 * client's first message is a GS2 header and {@code %x01}-separated key/value pairs:
 * {@code n,[a=authzid],%x01auth=Bearer <token>%x01[key=value%x01...]%x01}. A token the verifier accepts
 * completes the exchange; extensions are accepted as Apache's default validator accepts them. A token it
 * refuses is answered with the RFC's error challenge {@code {"status":"invalid_token"}}, the client
 * acknowledges with a lone {@code %x01}, and only then does the exchange fail, with that JSON as the
 * message (the two-step failure). Why the token was refused goes to the broker log, never to the client.
 */
public final class OAuthBearerServerExchange implements SaslServerExchange {
    /** RFC 7628 §3.2.2's error for any token the server does not accept. */
    static final String INVALID_TOKEN = "{\"status\":\"invalid_token\"}";
    private static final String SEPARATOR = "\u0001";
    private static final Pattern KEY = Pattern.compile("[A-Za-z]+");
    private static final Pattern VALUE = Pattern.compile("[\\x21-\\x7E \t\r\n]+");
    /** RFC 7628's b64token after the scheme: base64url characters (Apache also allows dots, as in a JWT). */
    private static final Pattern BEARER = Pattern.compile("(?<scheme>\\w+) +(?<token>[-_.a-zA-Z0-9]+)");
    private static final Pattern SASL_NAME = Pattern.compile("(?:[\\x01-\\x7F&&[^=,]]|=2C|=3D)+");

    private final BearerTokenVerifier verifier;
    private ValidatedToken token;
    /** Why the token was refused, once the error challenge went out; the next message must be %x01. */
    private String refusal;
    private boolean failed;

    public OAuthBearerServerExchange(BearerTokenVerifier verifier) {
        this.verifier = Objects.requireNonNull(verifier);
    }

    @Override
    public SaslMechanism mechanism() {
        return SaslMechanism.OAUTHBEARER;
    }

    @Override
    public byte[] evaluate(byte[] clientToken) {
        if (token != null || failed) {
            throw fail(SaslAuthenticationFailure.invalidCredentials(mechanism(), "a message after the exchange ended"));
        }
        if (refusal != null) {
            boolean acknowledged = clientToken.length == 1 && clientToken[0] == 0x01;
            throw fail(acknowledged ? new SaslAuthenticationFailure(INVALID_TOKEN, refusal)
                    : SaslAuthenticationFailure.invalidCredentials(mechanism(),
                    "the client did not acknowledge the error challenge (" + refusal + ")"));
        }
        String message = new String(clientToken, StandardCharsets.UTF_8);
        ClientFirstMessage first = ClientFirstMessage.parse(message);
        if (first == null) {
            throw fail(SaslAuthenticationFailure.invalidCredentials(mechanism(),
                    "invalid OAUTHBEARER client first message"));
        }
        ValidatedToken validated;
        try {
            validated = verifier.verify(first.token());
        } catch (InvalidTokenException e) {
            refusal = e.getMessage();
            return INVALID_TOKEN.getBytes(StandardCharsets.UTF_8);
        }
        if (!first.authorizationId().isEmpty() && !first.authorizationId().equals(validated.principalName())) {
            throw fail(new SaslAuthenticationFailure(String.format("Authentication failed: Client requested an "
                    + "authorization id (%s) that is different from the token's principal name (%s)",
                    first.authorizationId(), validated.principalName()),
                    validated.principalName() + " asked to act as " + first.authorizationId()));
        }
        token = validated;
        return new byte[0];
    }

    private SaslAuthenticationFailure fail(SaslAuthenticationFailure failure) {
        failed = true;
        return failure;
    }

    @Override
    public boolean isComplete() {
        return token != null;
    }

    @Override
    public String authenticatedUser() {
        if (token == null) {
            throw new IllegalStateException("the OAUTHBEARER exchange is not complete");
        }
        return token.principalName();
    }

    @Override
    public OptionalLong credentialExpiresAtMs() {
        return token == null ? OptionalLong.empty() : OptionalLong.of(token.expiresAtMs());
    }

    /** The parts of a client first message the server uses. */
    private record ClientFirstMessage(String authorizationId, String token) {

        /** Null when the message breaks RFC 7628's grammar (or names a scheme other than Bearer). */
        static ClientFirstMessage parse(String message) {
            if (!message.startsWith("n,")) {
                return null;
            }
            int headerEnd = message.indexOf(',', 2);
            if (headerEnd < 0) {
                return null;
            }
            String authzid = message.substring(2, headerEnd);
            if (!authzid.isEmpty()) {
                if (!authzid.startsWith("a=") || !SASL_NAME.matcher(authzid.substring(2)).matches()) {
                    return null;
                }
                authzid = authzid.substring(2);
            }
            String pairs = message.substring(headerEnd + 1);
            if (!pairs.startsWith(SEPARATOR) || !pairs.endsWith(SEPARATOR + SEPARATOR) || pairs.length() < 3) {
                return null;
            }
            String auth = null;
            for (String pair : pairs.substring(1, pairs.length() - 2).split(SEPARATOR, -1)) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    return null;
                }
                String key = pair.substring(0, equals);
                String value = pair.substring(equals + 1);
                if (!KEY.matcher(key).matches() || !VALUE.matcher(value).matches()) {
                    return null;
                }
                if (key.equals("auth")) {
                    if (auth != null) {
                        return null;
                    }
                    auth = value;
                }
            }
            if (auth == null) {
                return null;
            }
            var bearer = BEARER.matcher(auth);
            if (!bearer.matches() || !bearer.group("scheme").equalsIgnoreCase("bearer")) {
                return null;
            }
            return new ClientFirstMessage(authzid, bearer.group("token"));
        }
    }
}
