package io.kaas.adapter.wire.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.ApacheScramClient;
import io.kaas.adapter.wire.support.Frames;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.application.authentication.SaslAuthenticator;
import io.kaas.application.authentication.StoredUserWriter;
import io.kaas.application.authentication.UserScramCredentialService;
import io.kaas.application.fake.ManualClock;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.ScramMechanism;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The pre-authentication gate of a SASL listener's connection, state by state, against Apache's behaviour. */
@ExtendWith(NettyLeakDetection.class)
class SaslGateTest {
    private static final byte[] SALT = "salt".getBytes(StandardCharsets.UTF_8);
    private static final String GENERIC_FAILURE =
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512";

    private final InMemoryBroker broker = new InMemoryBroker();
    /** The principal of each Metadata request the registry served. */
    private final List<KafkaPrincipal> metadataPrincipals = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private final ApiRegistry registry;
    /** A listener without {@code connections.max.reauth.ms}: SCRAM and PLAIN sessions never end. */
    private final WireChannel wire;
    /** Another connection, on a listener whose sessions last {@link #MAX_REAUTH_MS}; opened by the tests that use it. */
    private WireChannel bounded;
    private static final long MAX_REAUTH_MS = 60_000;

    SaslGateTest() {
        UserScramCredentialService users = new UserScramCredentialService(broker.credentials(), new StoredUserWriter(broker.credentials()));
        users.setPassword("alice", ScramMechanism.SCRAM_SHA_512, "s3cret", SALT, 4096);
        users.setPassword("bob", ScramMechanism.SCRAM_SHA_512, "b0b", SALT, 4096);
        registry = ApiRegistry.builder()
                .serve(ApiKeys.METADATA, 0, 12, (context, request) -> {
                    metadataPrincipals.add(context.principal());
                    return CompletableFuture.completedFuture(new MetadataResponse(new MetadataResponseData(), (short) 12));
                })
                .serve(ApiKeys.SASL_HANDSHAKE, 0, 1, broker.registry().entries().get(ApiKeys.SASL_HANDSHAKE).handler())
                .serve(ApiKeys.SASL_AUTHENTICATE, 0, 2, broker.registry().entries().get(ApiKeys.SASL_AUTHENTICATE).handler())
                .build();
        wire = connection(0);
    }

    private WireChannel connection(long connectionsMaxReauthMs) {
        return new WireChannel(registry, new SaslServerAuthenticator(List.of(SaslMechanism.SCRAM_SHA_512,
                SaslMechanism.PLAIN), new SaslAuthenticator(broker.credentials(), () -> "servernonce"),
                connectionsMaxReauthMs, clock::nowMs));
    }

    @AfterEach
    void close() {
        wire.close();
        if (bounded != null) {
            bounded.close();
        }
    }

    @Test
    void aRequestBeforeTheHandshakeClosesTheConnectionWithoutAnAnswer() {
        wire.send(metadata());

        assertThat(wire.outboundCount()).isZero();
        assertThat(wire.isOpen()).isFalse();
        assertThat(metadataPrincipals).isEmpty();
    }

    @Test
    void apiVersionsThenTheHandshakeThenScramAuthenticateTheConnectionAsItsUser() {
        ApiVersionsResponse versions = wire.roundTrip(new ApiVersionsRequest(new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1"), (short) 3));
        assertThat(versions.data().errorCode()).isZero();

        SaslHandshakeResponse handshake = wire.roundTrip(handshake("SCRAM-SHA-512", 1));
        assertThat(handshake.data().errorCode()).isZero();
        assertThat(handshake.data().mechanisms()).containsExactly("SCRAM-SHA-512", "PLAIN");

        ApacheScramClient client = new ApacheScramClient("SCRAM-SHA-512", "alice", "s3cret");
        SaslAuthenticateResponse serverFirst = wire.roundTrip(authenticate(client.first(), 2));
        assertThat(serverFirst.data().errorCode()).isZero();
        SaslAuthenticateResponse serverFinal = wire.roundTrip(authenticate(client.evaluate(serverFirst.data().authBytes()), 2));
        assertThat(serverFinal.data().errorCode()).isZero();
        assertThat(serverFinal.data().sessionLifetimeMs()).as("no re-authentication deadline").isZero();
        client.evaluate(serverFinal.data().authBytes());
        assertThat(client.isComplete()).as("the broker's server signature convinced Apache's client").isTrue();

        wire.roundTrip(metadata());
        assertThat(metadataPrincipals).containsExactly(KafkaPrincipal.user("alice"));
    }

    @Test
    void aWrongPasswordIsAnsweredSaslAuthenticationFailedThenTheConnectionCloses() {
        wire.roundTrip(handshake("SCRAM-SHA-512", 1));
        ApacheScramClient client = new ApacheScramClient("SCRAM-SHA-512", "alice", "guess");
        SaslAuthenticateResponse serverFirst = wire.roundTrip(authenticate(client.first(), 1));

        SaslAuthenticateRequest clientFinal = authenticate(client.evaluate(serverFirst.data().authBytes()), 1);
        SaslAuthenticateResponse failed = wire.receive(clientFinal, wire.send(clientFinal));

        assertThat(failed.data().errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
        assertThat(failed.data().errorMessage()).isEqualTo(GENERIC_FAILURE);
        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void anUnknownUserGetsTheSameAnswerAsAWrongPassword() {
        wire.roundTrip(handshake("SCRAM-SHA-512", 1));
        SaslAuthenticateRequest first = authenticate(new ApacheScramClient("SCRAM-SHA-512", "mallory", "s3cret").first(), 2);

        SaslAuthenticateResponse failed = wire.receive(first, wire.send(first));

        assertThat(failed.data().errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
        assertThat(failed.data().errorMessage()).isEqualTo(GENERIC_FAILURE);
        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void aMechanismTheListenerDoesNotEnableIsAnsweredWithTheEnabledOnesThenTheConnectionCloses() {
        SaslHandshakeRequest request = handshake("SCRAM-SHA-256", 1);

        SaslHandshakeResponse response = wire.receive(request, wire.send(request));

        assertThat(response.data().errorCode()).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM.code());
        assertThat(response.data().mechanisms()).containsExactly("SCRAM-SHA-512", "PLAIN");
        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void anotherRequestAfterTheHandshakeIsAnsweredIllegalSaslStateThenTheConnectionCloses() {
        wire.roundTrip(handshake("SCRAM-SHA-512", 1));
        MetadataRequest request = metadata();

        MetadataResponse response = wire.receive(request, wire.send(request));

        assertThat(response.errorCounts()).containsKey(Errors.ILLEGAL_SASL_STATE);
        assertThat(wire.isOpen()).isFalse();
        assertThat(metadataPrincipals).isEmpty();
    }

    @Test
    void onceAuthenticatedAnotherHandshakeOrAuthenticateIsIllegalAndThePrincipalStays() {
        authenticatePlain(1);

        assertThat(wire.<SaslHandshakeResponse>roundTrip(handshake("PLAIN", 1)).data().errorCode())
                .isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
        SaslAuthenticateResponse again = wire.roundTrip(authenticate(plain("bob", "pw"), 2));
        assertThat(again.data().errorCode()).isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
        assertThat(again.data().errorMessage()).isEqualTo("SaslAuthenticate request received after successful authentication");

        wire.roundTrip(metadata());
        assertThat(metadataPrincipals).containsExactly(KafkaPrincipal.user("alice"));
    }

    @Test
    void aV0HandshakeIsFollowedByBareTokensAsBeforeKip152() {
        wire.roundTrip(handshake("PLAIN", 0));

        wire.write(Frames.frame(plain("alice", "s3cret")));
        ByteBuf answer = wire.nextResponse();
        try {
            assertThat(answer.readableBytes()).as("a bare, empty, size-prefixed token").isEqualTo(4);
            assertThat(answer.readInt()).isZero();
        } finally {
            answer.release();
        }

        wire.roundTrip(metadata());
        assertThat(metadataPrincipals).containsExactly(KafkaPrincipal.user("alice"));
    }

    @Test
    void aFailedBareTokenClosesTheConnectionWithoutAnAnswer() {
        wire.roundTrip(handshake("PLAIN", 0));

        wire.write(Frames.frame(plain("alice", "guess")));

        assertThat(wire.outboundCount()).isZero();
        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void beforeAuthenticationAFrameAboveApachesSaslReceiveCapClosesTheConnection() {
        ByteBuf huge = Unpooled.buffer(8).writeInt(SaslServerAuthenticator.MAX_RECEIVE_BYTES_BEFORE_AUTHENTICATION + 1)
                .writeInt(0);

        wire.write(huge);

        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void onceAuthenticatedTheListenersOwnFrameCapApplies() {
        authenticatePlain(2);
        MetadataRequest big = new MetadataRequest.Builder(List.of("t".repeat(249)), false).build((short) 12);
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            many.add(i + "-" + "t".repeat(240));
        }
        MetadataRequest request = new MetadataRequest.Builder(many, false).build((short) 12);
        assertThat(Frames.headerAndBody(request, 1).length)
                .isGreaterThan(SaslServerAuthenticator.MAX_RECEIVE_BYTES_BEFORE_AUTHENTICATION);

        wire.roundTrip(request);
        wire.roundTrip(big);

        assertThat(metadataPrincipals).hasSize(2);
    }

    @Test
    void aBoundedSessionIsAdvertisedAndReauthenticatingAsTheSameUserRenewsIt() {
        bounded = connection(MAX_REAUTH_MS);
        assertThat(authenticatePlain(bounded, "alice", "s3cret").data().sessionLifetimeMs()).isEqualTo(MAX_REAUTH_MS);

        clock.advance(MAX_REAUTH_MS - 1_000);
        assertThat(bounded.<SaslHandshakeResponse>roundTrip(handshake("PLAIN", 1)).data().errorCode()).isZero();
        SaslAuthenticateResponse renewed = bounded.roundTrip(authenticate(plain("alice", "s3cret"), 2));
        assertThat(renewed.data().errorCode()).isZero();
        assertThat(renewed.data().sessionLifetimeMs()).isEqualTo(MAX_REAUTH_MS);

        clock.advance(MAX_REAUTH_MS - 1_000); // past the first session's end, within the renewed one
        bounded.roundTrip(metadata());
        assertThat(metadataPrincipals).containsExactly(KafkaPrincipal.user("alice"));
        assertThat(bounded.isOpen()).isTrue();
    }

    @Test
    void aRequestAfterTheSessionEndedClosesTheConnection() {
        bounded = connection(MAX_REAUTH_MS);
        authenticatePlain(bounded, "alice", "s3cret");
        clock.advance(MAX_REAUTH_MS);
        bounded.roundTrip(metadata()); // at the end, not past it

        clock.advance(1);
        bounded.send(metadata());

        assertThat(bounded.isOpen()).isFalse();
        assertThat(metadataPrincipals).hasSize(1);
    }

    @Test
    void reauthenticatingAsAnotherUserFailsAndClosesTheConnection() {
        bounded = connection(MAX_REAUTH_MS);
        authenticatePlain(bounded, "alice", "s3cret");
        clock.advance(5_000);
        bounded.roundTrip(handshake("PLAIN", 1));

        SaslAuthenticateRequest asBob = authenticate(plain("bob", "b0b"), 2);
        SaslAuthenticateResponse refused = bounded.receive(asBob, bounded.send(asBob));

        assertThat(refused.data().errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
        assertThat(refused.data().errorMessage())
                .isEqualTo("Cannot change principals during re-authentication from User.alice: User.bob");
        assertThat(bounded.isOpen()).isFalse();
    }

    @Test
    void reauthenticatingWithAnotherMechanismFails() {
        bounded = connection(MAX_REAUTH_MS);
        authenticatePlain(bounded, "alice", "s3cret");
        clock.advance(5_000);
        assertThat(bounded.<SaslHandshakeResponse>roundTrip(handshake("SCRAM-SHA-512", 1)).data().errorCode()).isZero();

        SaslAuthenticateRequest scram = authenticate(new ApacheScramClient("SCRAM-SHA-512", "alice", "s3cret").first(), 2);
        SaslAuthenticateResponse refused = bounded.receive(scram, bounded.send(scram));

        assertThat(refused.data().errorMessage()).isEqualTo("SASL mechanism 'SCRAM-SHA-512' requested by client is "
                + "not supported for re-authentication of mechanism 'PLAIN'");
        assertThat(bounded.isOpen()).isFalse();
    }

    @Test
    void aSecondReauthenticationWithinASecondIsAnOrdinaryIllegalHandshake() {
        bounded = connection(MAX_REAUTH_MS);
        authenticatePlain(bounded, "alice", "s3cret");
        clock.advance(5_000);
        bounded.roundTrip(handshake("PLAIN", 1));
        bounded.roundTrip(authenticate(plain("alice", "s3cret"), 2));

        assertThat(bounded.<SaslHandshakeResponse>roundTrip(handshake("PLAIN", 1)).data().errorCode())
                .isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
        assertThat(bounded.isOpen()).isTrue();
    }

    private SaslAuthenticateResponse authenticatePlain(WireChannel channel, String user, String password) {
        channel.roundTrip(handshake("PLAIN", 1));
        SaslAuthenticateResponse done = channel.roundTrip(authenticate(plain(user, password), 2));
        assertThat(done.data().errorCode()).isZero();
        return done;
    }

    private void authenticatePlain(int version) {
        wire.roundTrip(handshake("PLAIN", 1));
        SaslAuthenticateResponse done = wire.roundTrip(authenticate(plain("alice", "s3cret"), version));
        assertThat(done.data().errorCode()).isZero();
    }

    private static byte[] plain(String user, String password) {
        return ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }

    private static SaslHandshakeRequest handshake(String mechanism, int version) {
        return new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism(mechanism))
                .build((short) version);
    }

    private static SaslAuthenticateRequest authenticate(byte[] token, int version) {
        return new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token))
                .build((short) version);
    }

    private static MetadataRequest metadata() {
        return new MetadataRequest.Builder(List.of("orders"), false).build((short) 12);
    }
}
