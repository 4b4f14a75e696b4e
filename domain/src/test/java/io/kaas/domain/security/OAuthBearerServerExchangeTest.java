package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.security.oauth.InvalidTokenException;
import io.kaas.domain.security.oauth.ValidatedToken;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The RFC 7628 message handling, with a verifier that accepts exactly one token. */
class OAuthBearerServerExchangeTest {
    private static final String GOOD = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
    private static final long EXPIRES = 1_800_000_000_000L;

    private final List<String> verified = new ArrayList<>();
    private final OAuthBearerServerExchange exchange = new OAuthBearerServerExchange(token -> {
        verified.add(token);
        if (!token.equals(GOOD)) {
            throw new InvalidTokenException("the signature does not verify");
        }
        return new ValidatedToken("alice", EXPIRES);
    });

    @Test
    void theJavaClientsFirstMessageCompletesWithTheTokensPrincipalAndExpiry() {
        byte[] answer = exchange.evaluate(bytes("n,,\u0001auth=Bearer " + GOOD + "\u0001\u0001"));

        assertThat(answer).isEmpty();
        assertThat(exchange.isComplete()).isTrue();
        assertThat(exchange.authenticatedUser()).isEqualTo("alice");
        assertThat(exchange.credentialExpiresAtMs()).hasValue(EXPIRES);
        assertThat(verified).containsExactly(GOOD);
    }

    @Test
    void extensionsAndAMatchingAuthorizationIdAreAccepted() {
        exchange.evaluate(bytes("n,a=alice,\u0001auth=bearer " + GOOD + "\u0001traceId=abc 123\u0001logicalCluster=lkc"
                + "\u0001\u0001"));

        assertThat(exchange.authenticatedUser()).isEqualTo("alice");
    }

    @Test
    void anAuthorizationIdOtherThanThePrincipalFails() {
        assertThatThrownBy(() -> exchange.evaluate(bytes("n,a=admin,\u0001auth=Bearer " + GOOD + "\u0001\u0001")))
                .isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessage("Authentication failed: Client requested an authorization id (admin) that is different "
                        + "from the token's principal name (alice)");
        assertThat(exchange.isComplete()).isFalse();
    }

    @Test
    void aRefusedTokenFailsInTwoStepsAfterTheErrorChallenge() {
        byte[] challenge = exchange.evaluate(bytes("n,,\u0001auth=Bearer abc.def.ghi\u0001\u0001"));

        assertThat(new String(challenge, StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
        assertThat(exchange.isComplete()).isFalse();
        assertThatThrownBy(() -> exchange.evaluate(new byte[] {0x01}))
                .isInstanceOfSatisfying(SaslAuthenticationFailure.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("{\"status\":\"invalid_token\"}");
                    assertThat(e.reason()).contains("signature does not verify");
                });
    }

    @Test
    void anythingButTheAcknowledgementAfterTheChallengeFails() {
        exchange.evaluate(bytes("n,,\u0001auth=Bearer abc.def.ghi\u0001\u0001"));

        assertThatThrownBy(() -> exchange.evaluate(bytes("n,,\u0001auth=Bearer " + GOOD + "\u0001\u0001")))
                .isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessageContaining("invalid credentials with SASL mechanism OAUTHBEARER");
        assertThat(exchange.isComplete()).isFalse();
    }

    @Test
    void malformedFirstMessagesFailWithoutReachingTheVerifier() {
        for (String message : List.of("", "auth=Bearer x", "n,,auth=Bearer " + GOOD, "y,,\u0001auth=Bearer x\u0001\u0001",
                "n,,\u0001auth=Bearer " + GOOD + "\u0001", "n,,\u0001auth=Basic " + GOOD + "\u0001\u0001",
                "n,,\u0001auth=Bearer\u0001\u0001", "n,,\u0001auth=Bearer a b\u0001\u0001",
                "n,,\u0001foo=bar\u0001\u0001", "n,,\u0001auth=Bearer x\u00011=2\u0001\u0001",
                "n,b=alice,\u0001auth=Bearer x\u0001\u0001",
                "n,,\u0001auth=Bearer x\u0001auth=Bearer y\u0001\u0001")) {
            OAuthBearerServerExchange fresh = new OAuthBearerServerExchange(token -> {
                throw new AssertionError("verified " + token);
            });
            assertThatThrownBy(() -> fresh.evaluate(bytes(message))).as(message)
                    .isInstanceOf(SaslAuthenticationFailure.class)
                    .hasMessage("Authentication failed during authentication due to invalid credentials with SASL "
                            + "mechanism OAUTHBEARER");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
