package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainServerExchangeTest {
    private static final Credentials USERS = Credentials.EMPTY
            .with(new StoredUser("alice", Map.of(ScramMechanism.SCRAM_SHA_512,
                    ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "s3cret", "salt".getBytes(StandardCharsets.UTF_8), 4096)), null))
            .with(new StoredUser("bob", Map.of(ScramMechanism.SCRAM_SHA_256,
                    ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "hunter2", "salt".getBytes(StandardCharsets.UTF_8), 4096)), null));

    @Test
    void theRightPasswordAuthenticatesAgainstEitherStoredScramCredential() {
        PlainServerExchange alice = new PlainServerExchange(USERS);
        assertThat(alice.evaluate(message("\0alice\0s3cret"))).isEmpty();
        assertThat(alice.isComplete()).isTrue();
        assertThat(alice.authenticatedUser()).isEqualTo("alice");

        PlainServerExchange bob = new PlainServerExchange(USERS);
        bob.evaluate(message("bob\0bob\0hunter2"));
        assertThat(bob.authenticatedUser()).isEqualTo("bob");
    }

    @Test
    void aWrongPasswordAndAnUnknownUserFailAlike() {
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("\0alice\0guess")))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage("Authentication failed: Invalid username or password");
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("\0mallory\0s3cret")))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage("Authentication failed: Invalid username or password");
    }

    @Test
    void anotherAuthorizationIdMalformedMessagesAndEmptyFieldsAreRefused() {
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("bob\0alice\0s3cret")))
                .hasMessage("Authentication failed: Client requested an authorization id that is different from username");
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("alice\0s3cret")))
                .hasMessage("Invalid SASL/PLAIN response: expected 3 tokens, got 2");
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("\0\0s3cret")))
                .hasMessage("Authentication failed: username not specified");
        assertThatThrownBy(() -> new PlainServerExchange(USERS).evaluate(message("\0alice\0")))
                .hasMessage("Authentication failed: password not specified");
    }

    @Test
    void theExchangeIsOneMessageLong() {
        PlainServerExchange exchange = new PlainServerExchange(USERS);
        exchange.evaluate(message("\0alice\0s3cret"));

        assertThatThrownBy(() -> exchange.evaluate(message("\0alice\0s3cret")))
                .isInstanceOf(SaslAuthenticationFailure.class);
        assertThat(new PlainServerExchange(USERS).mechanism().sendsReusableSecret()).isTrue();
    }

    private static byte[] message(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
