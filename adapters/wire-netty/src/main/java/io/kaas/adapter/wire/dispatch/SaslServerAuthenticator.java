package io.kaas.adapter.wire.dispatch;

import io.kaas.adapter.wire.codec.KafkaRequest;
import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SaslAuthenticationFailure;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.SessionLifetime;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.errors.IllegalSaslStateException;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pre-authentication gate of one connection on a SASL listener, following Apache's
 * SaslServerAuthenticator state by state:
 * <ul>
 * <li>before the handshake only ApiVersions (once) and SaslHandshake pass; anything else closes the
 *     connection without an answer;</li>
 * <li>an unsupported mechanism is answered UNSUPPORTED_SASL_MECHANISM with the enabled ones, then
 *     the connection closes;</li>
 * <li>after a v1 handshake only SaslAuthenticate passes; anything else is answered ILLEGAL_SASL_STATE,
 *     then the connection closes. A v0 handshake means the client's next frames are bare SASL tokens
 *     without Kafka headers (the pre-KIP-152 framing), answered as bare size-prefixed tokens;</li>
 * <li>a failed step is answered SASL_AUTHENTICATION_FAILED with the exchange's message (bare
 *     tokens: no answer), then the connection closes;</li>
 * <li>once complete, the connection speaks for {@code User:<name>} and this gate steps aside. The
 *     session lasts {@code session_lifetime_ms} (KIP-368, {@link SessionLifetime}): the listener's
 *     {@code connections.max.reauth.ms} when set, bounded by a bearer token's expiry; unbounded otherwise.
 *     The client re-authenticates by sending SaslHandshake again on the same connection
 *     ({@link #beginReauthentication()}): same mechanism, and the new exchange must prove the same
 *     principal, or it fails and the connection closes. Past the session's end, the next request other
 *     than that SaslHandshake closes the connection ({@link #sessionExpired()}), as Apache's broker does.
 *     On a session without an end, a later SaslHandshake or SaslAuthenticate goes to the registry, whose
 *     handlers answer ILLEGAL_SASL_STATE, as Apache's KafkaApis does.</li>
 * </ul>
 * Event-loop confined: the exchanges verify against credentials held in memory.
 */
public final class SaslServerAuthenticator {
    private static final Logger LOG = LoggerFactory.getLogger(SaslServerAuthenticator.class);

    /**
     * Apache's {@code sasl.server.max.receive.size} default: the largest frame an unauthenticated
     * client may send, so nobody can make the broker buffer 100 MiB before saying who they are.
     */
    public static final int MAX_RECEIVE_BYTES_BEFORE_AUTHENTICATION = 524_288;

    private enum State { HANDSHAKE_OR_VERSIONS, HANDSHAKE, AUTHENTICATE, AUTHENTICATE_BARE_TOKENS, COMPLETE, FAILED }

    private final List<SaslMechanism> enabled;
    private final SaslAuthenticationUseCase authentication;
    private final long connectionsMaxReauthMs;
    /** Milliseconds since the epoch. */
    private final LongSupplier clock;
    private State state = State.HANDSHAKE_OR_VERSIONS;
    private SaslServerExchange exchange;
    private KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;
    /** The mechanism of the completed authentication; a re-authentication must use it again. */
    private SaslMechanism mechanism;
    /** When the last re-authentication began; Apache allows one a second, so nobody can keep the broker busy with them. */
    private long lastReauthenticationMs = Long.MIN_VALUE / 2;
    /** Set while a re-authentication runs: the principal it must prove again. */
    private KafkaPrincipal reauthenticating;
    /** Why a re-authentication asked for another mechanism; its SaslAuthenticate fails with it. */
    private String badReauthenticationMechanism;
    /** When the session ends (ms since the epoch); empty: never. */
    private OptionalLong sessionExpiresAtMs = OptionalLong.empty();
    /** The lifetime the last completed exchange granted, for its SaslAuthenticate response (0: unbounded). */
    private long sessionLifetimeMs;

    /**
     * @param enabled                the listener's mechanisms, in the order the handshake lists them
     * @param connectionsMaxReauthMs the longest session before the client must re-authenticate; 0: no bound
     *                               (sessions still end when a bearer token expires)
     * @param clock                  the time sessions are measured on, in milliseconds since the epoch (a bearer
     *                               token's {@code exp} is one)
     */
    public SaslServerAuthenticator(List<SaslMechanism> enabled, SaslAuthenticationUseCase authentication,
                                   long connectionsMaxReauthMs, LongSupplier clock) {
        this.enabled = List.copyOf(enabled);
        this.authentication = authentication;
        this.connectionsMaxReauthMs = connectionsMaxReauthMs;
        this.clock = clock;
    }

    /**
     * What becomes of a request on a connection that has not authenticated yet: dispatched to the
     * registry (no answer, no close), answered here (then maybe closed), or closed unanswered.
     */
    public record Admission(Optional<AbstractResponse> answer, boolean thenClose) {
        static final Admission DISPATCH = new Admission(Optional.empty(), false);
        static final Admission CLOSE = new Admission(Optional.empty(), true);

        static Admission answer(AbstractResponse response) {
            return new Admission(Optional.of(response), false);
        }

        static Admission answerThenClose(AbstractResponse response) {
            return new Admission(Optional.of(response), true);
        }

        /** The connection closes at once, the request unanswered. */
        public boolean closesUnanswered() {
            return answer.isEmpty() && thenClose;
        }
    }

    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    /** After a v0 handshake: the next frame is a bare SASL token, not a Kafka request. */
    public boolean expectsBareToken() {
        return state == State.AUTHENTICATE_BARE_TOKENS;
    }

    /**
     * {@code User:<name>} once authenticated (also while it re-authenticates: the session it had still
     * holds), ANONYMOUS before.
     */
    public KafkaPrincipal principal() {
        return principal;
    }

    /** Whether the connection authenticated once: its principal is the SASL one. */
    public boolean hasAuthenticated() {
        return mechanism != null;
    }

    /** Whether the session of a completed authentication has ended: the connection must close. */
    public boolean sessionExpired() {
        return state == State.COMPLETE && sessionExpiresAtMs.isPresent()
                && clock.getAsLong() > sessionExpiresAtMs.getAsLong();
    }

    /**
     * A SaslHandshake arrived on an authenticated connection: if its session has an end (there is something
     * to re-authenticate for) and no re-authentication began in the last second, the gate takes the
     * connection's requests again, starting with this handshake, as Apache's KafkaChannel does. Otherwise the
     * handshake is an ordinary request (answered ILLEGAL_SASL_STATE).
     *
     * @return whether the gate now decides the handshake
     */
    public boolean beginReauthentication() {
        long nowMs = clock.getAsLong();
        if (state != State.COMPLETE || sessionExpiresAtMs.isEmpty() || nowMs - lastReauthenticationMs < 1_000) {
            return false;
        }
        lastReauthenticationMs = nowMs;
        reauthenticating = principal;
        state = State.HANDSHAKE; // Apache's REAUTH_PROCESS_HANDSHAKE: ApiVersions is not asked again
        return true;
    }

    /** Decides a request that arrived before the exchange completed. */
    public Admission admit(KafkaRequest request, String client) {
        ApiKeys key = request.header().apiKey();
        return switch (state) {
            case HANDSHAKE_OR_VERSIONS, HANDSHAKE -> beforeHandshake(request, key, client);
            case AUTHENTICATE -> {
                if (key == ApiKeys.SASL_AUTHENTICATE) {
                    yield authenticate((SaslAuthenticateRequest) request.body(), client);
                }
                state = State.FAILED;
                LOG.info("closing connection from {}: {} before SASL authentication completed", client, key);
                yield Admission.answerThenClose(request.body().getErrorResponse(new IllegalSaslStateException(
                        "Unexpected Kafka request of type " + key + " during SASL authentication.")));
            }
            case AUTHENTICATE_BARE_TOKENS, COMPLETE, FAILED -> throw new IllegalStateException(
                    "no Kafka request is admitted in SASL state " + state);
        };
    }

    private Admission beforeHandshake(KafkaRequest request, ApiKeys key, String client) {
        if (key == ApiKeys.API_VERSIONS && state == State.HANDSHAKE_OR_VERSIONS) {
            if (!request.unsupportedVersion()) {
                state = State.HANDSHAKE; // as Apache: a client retrying at a lower version may ask again
            }
            return Admission.DISPATCH;
        }
        if (key != ApiKeys.SASL_HANDSHAKE) {
            state = State.FAILED;
            LOG.info("closing connection from {}: {} before the SASL handshake", client, key);
            return Admission.CLOSE;
        }
        SaslHandshakeRequest handshake = (SaslHandshakeRequest) request.body();
        String requested = handshake.data().mechanism();
        List<String> names = enabled.stream().map(SaslMechanism::mechanismName).toList();
        Optional<SaslMechanism> mechanism = SaslMechanism.byName(requested).filter(enabled::contains);
        if (mechanism.isEmpty()) {
            state = State.FAILED;
            LOG.info("closing connection from {}: SASL mechanism '{}' is not enabled here ({})", client, requested, names);
            return Admission.answerThenClose(new SaslHandshakeResponse(new SaslHandshakeResponseData()
                    .setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()).setMechanisms(names)));
        }
        if (reauthenticating != null && mechanism.get() != this.mechanism) {
            // as Apache: the handshake is accepted, the SaslAuthenticate that follows fails
            badReauthenticationMechanism = "SASL mechanism '" + requested + "' requested by client is not supported "
                    + "for re-authentication of mechanism '" + this.mechanism.mechanismName() + "'";
        } else {
            exchange = authentication.start(mechanism.get());
        }
        state = handshake.version() == 0 ? State.AUTHENTICATE_BARE_TOKENS : State.AUTHENTICATE;
        return Admission.answer(new SaslHandshakeResponse(new SaslHandshakeResponseData()
                .setErrorCode(Errors.NONE.code()).setMechanisms(names)));
    }

    private Admission authenticate(SaslAuthenticateRequest request, String client) {
        byte[] answer;
        try {
            answer = evaluate(request.data().authBytes(), client);
        } catch (SaslAuthenticationFailure e) {
            return Admission.answerThenClose(new SaslAuthenticateResponse(new SaslAuthenticateResponseData()
                    .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(e.getMessage())));
        }
        return Admission.answer(new SaslAuthenticateResponse(new SaslAuthenticateResponseData()
                .setErrorCode(Errors.NONE.code()).setAuthBytes(answer)
                .setSessionLifetimeMs(isComplete() ? sessionLifetimeMs : 0)));
    }

    /**
     * Evaluates a bare token (after a v0 handshake); the answer goes back as a bare size-prefixed
     * token.
     *
     * @throws SaslAuthenticationFailure when the step fails: the connection must close without an answer
     */
    public byte[] evaluateBareToken(ByteBuffer token, String client) {
        byte[] bytes = new byte[token.remaining()];
        token.get(bytes);
        return evaluate(bytes, client);
    }

    private byte[] evaluate(byte[] token, String client) {
        String what = reauthenticating != null ? "re-authentication" : "authentication";
        try {
            if (badReauthenticationMechanism != null) {
                throw new SaslAuthenticationFailure(badReauthenticationMechanism, badReauthenticationMechanism);
            }
            byte[] answer = exchange.evaluate(token);
            if (exchange.isComplete()) {
                complete(KafkaPrincipal.user(exchange.authenticatedUser()), client);
            }
            return answer;
        } catch (SaslAuthenticationFailure e) {
            LOG.info("SASL/{} {} from {} failed: {}", exchange != null ? exchange.mechanism().mechanismName()
                    : mechanism.mechanismName(), what, client, e.reason());
            state = State.FAILED;
            exchange = null;
            throw e;
        }
    }

    /** The exchange proved {@code proven}: the session starts (again, when re-authenticating the same principal). */
    private void complete(KafkaPrincipal proven, String client) {
        if (reauthenticating != null && !reauthenticating.equals(proven)) {
            String message = "Cannot change principals during re-authentication from " + reauthenticating.type() + "."
                    + reauthenticating.name() + ": " + proven.type() + "." + proven.name();
            throw new SaslAuthenticationFailure(message, message);
        }
        long nowMs = clock.getAsLong();
        OptionalLong lifetime = SessionLifetime.of(connectionsMaxReauthMs, exchange.credentialExpiresAtMs(), nowMs);
        sessionLifetimeMs = lifetime.orElse(0);
        sessionExpiresAtMs = lifetime.isPresent() ? OptionalLong.of(nowMs + lifetime.getAsLong()) : OptionalLong.empty();
        LOG.debug("{} {} as {}, session {}", client, reauthenticating != null ? "re-authenticated" : "authenticated",
                proven, lifetime.isPresent() ? lifetime.getAsLong() + " ms" : "unbounded");
        principal = proven;
        mechanism = exchange.mechanism();
        reauthenticating = null;
        state = State.COMPLETE;
        exchange = null;
    }
}
