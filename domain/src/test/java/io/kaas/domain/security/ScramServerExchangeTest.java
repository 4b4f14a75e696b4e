package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScramServerExchangeTest {
    /** RFC 7677 section 3: user "user", password "pencil", and both nonces. */
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final Credentials RFC_USER = credentials("user", ScramMechanism.SCRAM_SHA_256,
            ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "pencil",
                    Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096));
    private static final String GENERIC_512 =
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512";

    @Test
    void answersTheRfc7677ExchangeWithTheRfcMessages() {
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_256, RFC_USER, SERVER_NONCE);

        String serverFirst = text(server.evaluate(bytes("n,,n=user,r=rOprNGfwEbeRWgbNEkqO")));
        assertThat(serverFirst).isEqualTo("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
        assertThat(server.isComplete()).isFalse();

        String serverFinal = text(server.evaluate(bytes("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")));
        assertThat(serverFinal).isEqualTo("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
        assertThat(server.isComplete()).isTrue();
        assertThat(server.authenticatedUser()).isEqualTo("user");
    }

    @Test
    void sha512ExchangeWithTheRightPasswordCompletesAndTheServerSignatureChecksOut() {
        ScramTestClient client = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "s3cret", "");
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srvnonce");

        byte[] serverFirst = server.evaluate(client.first());
        byte[] serverFinal = server.evaluate(client.finalMessage(serverFirst));

        assertThat(server.authenticatedUser()).isEqualTo("alice");
        assertThat(text(serverFinal)).isEqualTo(client.expectedServerFinal());
    }

    @Test
    void aWrongPasswordAndAnUnknownUserFailWithTheSameMessage() {
        ScramTestClient wrong = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "guess", "");
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srvnonce");
        byte[] serverFirst = server.evaluate(wrong.first());
        assertThatThrownBy(() -> server.evaluate(wrong.finalMessage(serverFirst)))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage(GENERIC_512)
                .extracting(e -> ((SaslAuthenticationFailure) e).reason()).asString().contains("wrong proof");
        assertThat(server.isComplete()).isFalse();

        ScramTestClient stranger = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "mallory", "s3cret", "");
        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n").evaluate(stranger.first()))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage(GENERIC_512);
    }

    @Test
    void aUserWithOnlyTheOtherMechanismsCredentialIsUnknownToThisOne() {
        ScramTestClient client = new ScramTestClient(ScramMechanism.SCRAM_SHA_256, "alice", "s3cret", "");

        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_256, alice(), "n").evaluate(client.first()))
                .isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessageEndingWith("with SASL mechanism SCRAM-SHA-256");
    }

    @Test
    void theDelegationTokenExtensionIsRefusedLikeAnUnknownUser() {
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n");

        assertThatThrownBy(() -> server.evaluate(bytes("n,,n=alice,r=abc,tokenauth=true")))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage(GENERIC_512);
    }

    @Test
    void anAuthorizationIdOtherThanTheUserIsRefusedAndTheSameOneAccepted() {
        ScramServerExchange other = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n");
        assertThatThrownBy(() -> other.evaluate(bytes("n,a=admin,n=alice,r=abc")))
                .isInstanceOf(SaslAuthenticationFailure.class)
                .hasMessage("Authentication failed: Client requested an authorization id that is different from username");

        ScramTestClient same = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "s3cret", "alice");
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srv");
        server.evaluate(same.finalMessage(server.evaluate(same.first())));
        assertThat(server.authenticatedUser()).isEqualTo("alice");
    }

    @Test
    void channelBindingFlagsOtherThanNAndATamperedNonceOrBindingFail() {
        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n")
                .evaluate(bytes("p=tls-unique,,n=alice,r=abc"))).hasMessage(GENERIC_512);
        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n")
                .evaluate(bytes("y,,n=alice,r=abc"))).hasMessage(GENERIC_512);

        ScramTestClient client = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "s3cret", "");
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srvnonce");
        byte[] serverFirst = server.evaluate(client.first());
        String honest = text(client.finalMessage(serverFirst));
        assertThatThrownBy(() -> server.evaluate(bytes(honest.replace("srvnonce,p=", "srvnonceX,p="))))
                .isInstanceOf(SaslAuthenticationFailure.class).hasMessage(GENERIC_512)
                .extracting(e -> ((SaslAuthenticationFailure) e).reason()).asString().contains("Invalid client nonce");
        assertThatThrownBy(() -> server.evaluate(client.finalMessage(serverFirst)))
                .as("a failed exchange stays failed").isInstanceOf(SaslAuthenticationFailure.class);

        ScramServerExchange bound = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srvnonce");
        byte[] first = bound.evaluate(client.first());
        String rebound = text(client.finalMessage(first)).replace("c=biws", "c=" + Base64.getEncoder()
                .encodeToString(bytes("n,a=alice,")));
        assertThatThrownBy(() -> bound.evaluate(bytes(rebound))).hasMessage(GENERIC_512);
    }

    /** librdkafka before 2.6.1 (Debian's 2.0.2) repeats its nonce: r=cnonce+cnonce+snonce. Apache 3.7.2 accepts it. */
    @Test
    void aClientFinalNonceThatEndsWithTheServerFirstOneIsAcceptedAsByApache() {
        ScramTestClient librdkafka = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "s3cret", "");
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "srvnonce");
        byte[] serverFirst = server.evaluate(librdkafka.first());

        byte[] serverFinal = server.evaluate(librdkafka.finalMessage(serverFirst, librdkafka.clientNonce));

        assertThat(server.authenticatedUser()).isEqualTo("alice");
        assertThat(text(serverFinal)).isEqualTo(librdkafka.expectedServerFinal());

        ScramServerExchange another = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "fresh");
        byte[] freshFirst = another.evaluate(librdkafka.first());
        String replayed = text(librdkafka.finalMessage(serverFirst, librdkafka.clientNonce));
        assertThat(text(freshFirst)).startsWith("r=" + librdkafka.clientNonce + "fresh,");
        assertThatThrownBy(() -> another.evaluate(bytes(replayed)))
                .as("a client-final made for another exchange's server nonce").hasMessage(GENERIC_512)
                .extracting(e -> ((SaslAuthenticationFailure) e).reason()).asString().contains("Invalid client nonce");
    }

    @Test
    void escapedSaslNamesAreDecodedAndBadEscapesRefused() {
        ScramTestClient client = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "a,b=c", "pw", "");
        Credentials users = credentials("a,b=c", ScramMechanism.SCRAM_SHA_512,
                ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", "salt".getBytes(StandardCharsets.UTF_8), 4096));
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, users, "s");
        server.evaluate(client.finalMessage(server.evaluate(client.first())));
        assertThat(server.authenticatedUser()).isEqualTo("a,b=c");

        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, users, "s")
                .evaluate(bytes("n,,n=a=2Cb=XX,r=abc"))).hasMessage(GENERIC_512);
    }

    @Test
    void aStoredCredentialBelowTheIterationFloorIsNotUsed() {
        Credentials weak = credentials("alice", ScramMechanism.SCRAM_SHA_512,
                ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "s3cret", "salt".getBytes(StandardCharsets.UTF_8), 1024));
        ScramTestClient client = new ScramTestClient(ScramMechanism.SCRAM_SHA_512, "alice", "s3cret", "");

        assertThatThrownBy(() -> new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, weak, "n").evaluate(client.first()))
                .hasMessage(GENERIC_512);
    }

    @Test
    void theUserIsOnlyKnownOnceComplete() {
        ScramServerExchange server = new ScramServerExchange(ScramMechanism.SCRAM_SHA_512, alice(), "n");

        assertThatThrownBy(server::authenticatedUser).isInstanceOf(IllegalStateException.class);
    }

    private static Credentials alice() {
        return credentials("alice", ScramMechanism.SCRAM_SHA_512,
                ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "s3cret", "salt".getBytes(StandardCharsets.UTF_8), 4096));
    }

    static Credentials credentials(String user, ScramMechanism mechanism, ScramCredential credential) {
        return Credentials.EMPTY.with(new StoredUser(user, Map.of(mechanism, credential), null));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
