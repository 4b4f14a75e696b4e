package io.kaas.application.authentication;

import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.JwksSource;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.security.oauth.JsonObjectReader;
import io.kaas.domain.security.oauth.JsonWebKeySet;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OAuth issuer's signing keys held in memory, so validating a token never waits on the network: fetched
 * at start, again every refresh interval, and early when a token names a key the set lacks (the issuer
 * rotated its keys), at most once per minimum pause. A failed fetch keeps the keys it has and is retried
 * with a backoff capped at the refresh interval. Until the first successful fetch there are no keys, and
 * every token is refused (fail closed).
 */
public final class SigningKeyCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SigningKeyCache.class);
    /** The shortest retry after a failed fetch, whatever the minimum pause, so a down issuer is not hammered. */
    private static final long MIN_RETRY_MS = 1_000;

    private final JwksSource source;
    private final JsonObjectReader json;
    private final Scheduler scheduler;
    private final Clock clock;
    private final long refreshMs;
    private final long minPauseMs;
    private volatile JsonWebKeySet current;
    // guarded by this
    private boolean fetching;
    private boolean closed;
    private long lastFetchStartedMs = Long.MIN_VALUE / 2;
    private int failures;
    private Scheduler.Cancellable next;

    /**
     * @param refreshMs  how often the keys are fetched again ({@code jwksRefreshSeconds})
     * @param minPauseMs the least time between two fetches an unknown key id may trigger
     *                   ({@code jwksMinRefreshPauseSeconds})
     */
    public SigningKeyCache(JwksSource source, JsonObjectReader json, Scheduler scheduler, Clock clock, long refreshMs,
                           long minPauseMs) {
        if (refreshMs <= 0 || minPauseMs < 0) {
            throw new IllegalArgumentException("refresh " + refreshMs + " ms, minimum pause " + minPauseMs + " ms");
        }
        this.source = source;
        this.json = json;
        this.scheduler = scheduler;
        this.clock = clock;
        this.refreshMs = refreshMs;
        this.minPauseMs = minPauseMs;
    }

    /** Starts the first fetch; tokens are refused until it succeeds. */
    public SigningKeyCache start() {
        fetch();
        return this;
    }

    /** The keys of the last successful fetch; null before the first. */
    public JsonWebKeySet current() {
        return current;
    }

    /** A token named a key the set lacks: fetch again now, unless the last fetch started less than the pause ago. */
    public void keyMissing(String keyId) {
        synchronized (this) {
            if (fetching || clock.nowMs() - lastFetchStartedMs < minPauseMs) {
                return;
            }
        }
        LOG.info("a token names key {}, unknown in the JWKS of {}: fetching it again", keyId, source.location());
        fetch();
    }

    private void fetch() {
        synchronized (this) {
            if (fetching || closed) {
                return;
            }
            fetching = true;
            lastFetchStartedMs = clock.nowMs();
            if (next != null) {
                next.cancel();
                next = null;
            }
        }
        try {
            source.fetch().whenComplete(this::fetched);
        } catch (RuntimeException e) {
            fetched(null, e);
        }
    }

    private void fetched(byte[] document, Throwable error) {
        JsonWebKeySet keys = null;
        String problem = null;
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            problem = cause.toString();
        } else {
            try {
                keys = JsonWebKeySet.parse(json.read(document));
            } catch (IllegalArgumentException e) {
                problem = "not a JWKS document: " + e.getMessage();
            }
        }
        synchronized (this) {
            fetching = false;
            long delayMs;
            if (keys != null) {
                if (current == null || !current.keyIds().equals(keys.keyIds())) {
                    LOG.info("JWKS of {}: signing keys {}", source.location(), keys.keyIds());
                }
                current = keys;
                failures = 0;
                delayMs = refreshMs;
            } else {
                failures++;
                delayMs = Math.min(refreshMs, Math.max(MIN_RETRY_MS, minPauseMs) << Math.min(failures - 1, 20));
                LOG.warn("fetching the JWKS of {} failed ({}); {}; retrying in {} ms", source.location(), problem,
                        current == null ? "no signing keys yet, every token is refused" : "keeping the keys it had",
                        delayMs);
            }
            if (!closed) {
                next = scheduler.schedule(this::fetch, delayMs);
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (next != null) {
            next.cancel();
        }
    }
}
