package io.kaas.application.authentication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.port.out.JwksSource;
import io.kaas.domain.security.SaslAuthenticationFailure;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.oauth.JwtPolicy;
import io.kaas.domain.security.oauth.JwtValidator;
import io.kaas.domain.security.oauth.TestJwts;
import io.kaas.domain.security.oauth.TestJwts.Key;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Tokens against keys fetched by hand: fail closed, rotation by an early re-fetch, rate limits, retries. */
class OAuthBearerAuthenticatorTest {
    private static final String ISSUER = "https://issuer.example";
    private static final long REFRESH_MS = 300_000;
    private static final long MIN_PAUSE_MS = 10_000;

    private final ManualScheduler scheduler = new ManualScheduler();
    private final ManualClock clock = scheduler.clock();
    private final FakeJwks jwks = new FakeJwks();
    private final SigningKeyCache keys = new SigningKeyCache(jwks, TestJwts.READER, scheduler, clock, REFRESH_MS,
            MIN_PAUSE_MS);
    private final OAuthBearerAuthenticator authenticator = new OAuthBearerAuthenticator(
            new JwtValidator(new JwtPolicy(ISSUER, Optional.empty(), "sub", Optional.empty(), 0), TestJwts.READER),
            keys, clock);
    private final Key first = Key.rsa("k1");
    private final Key rotated = Key.ec("k2");

    @Test
    void everyTokenIsRefusedUntilTheFirstFetchSucceeds() {
        keys.start();
        jwks.fail();
        assertThat(authenticates(first)).isFalse();

        scheduler.advance(1_000 * 10); // the retry
        jwks.serve(first);

        assertThat(authenticates(first)).isTrue();
    }

    @Test
    void anUnknownKidTriggersOneEarlyFetchPerPause() {
        keys.start();
        jwks.serve(first);
        assertThat(jwks.requests()).isEqualTo(1);
        assertThat(authenticates(rotated)).isFalse(); // the keys were just fetched: no second fetch yet
        assertThat(jwks.requests()).isEqualTo(1);
        clock.advance(MIN_PAUSE_MS);

        assertThat(authenticates(rotated)).isFalse(); // the issuer rotated: this attempt fails, the keys are fetched
        assertThat(jwks.requests()).isEqualTo(2);
        jwks.serve(first, rotated);
        assertThat(authenticates(rotated)).isTrue();

        Key unknown = Key.rsa("k3");
        assertThat(authenticates(unknown)).isFalse(); // within the pause: no fetch
        assertThat(jwks.requests()).isEqualTo(2);
        clock.advance(MIN_PAUSE_MS);
        assertThat(authenticates(unknown)).isFalse();
        assertThat(jwks.requests()).isEqualTo(3);
    }

    @Test
    void theKeysAreFetchedAgainEveryRefreshIntervalAndAFailedFetchKeepsThem() {
        keys.start();
        jwks.serve(first);

        scheduler.advance(REFRESH_MS);
        assertThat(jwks.requests()).isEqualTo(2);
        jwks.fail();

        assertThat(authenticates(first)).isTrue();
        scheduler.advance(MIN_PAUSE_MS);
        assertThat(jwks.requests()).isEqualTo(3);
    }

    private boolean authenticates(Key key) {
        SaslServerExchange exchange = authenticator.start(SaslMechanism.OAUTHBEARER);
        String token = key.sign(key.pair().getPublic().getAlgorithm().equals("EC") ? "ES256" : "RS256",
                TestJwts.claims(ISSUER, "alice", clock.nowMs()));
        byte[] answer = exchange.evaluate(("n,,\u0001auth=Bearer " + token + "\u0001\u0001").getBytes(StandardCharsets.UTF_8));
        if (exchange.isComplete()) {
            return true;
        }
        assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
        assertThatThrownBy(() -> exchange.evaluate(new byte[] {1})).isInstanceOf(SaslAuthenticationFailure.class);
        return false;
    }

    /** A JWKS endpoint answered by the test: each fetch waits until it serves or fails it. */
    private static final class FakeJwks implements JwksSource {
        private final Deque<CompletableFuture<byte[]>> pending = new ArrayDeque<>();
        private int requests;

        @Override
        public synchronized CompletionStage<byte[]> fetch() {
            requests++;
            CompletableFuture<byte[]> response = new CompletableFuture<>();
            pending.add(response);
            return response;
        }

        @Override
        public String location() {
            return "https://issuer.example/jwks";
        }

        synchronized int requests() {
            return requests;
        }

        void serve(Key... keys) {
            next().complete(TestJwts.jwks(keys).getBytes(StandardCharsets.UTF_8));
        }

        void fail() {
            next().completeExceptionally(new IOException("connection refused"));
        }

        private synchronized CompletableFuture<byte[]> next() {
            assertThat(pending).as("a fetch in flight").isNotEmpty();
            return pending.poll();
        }
    }
}
