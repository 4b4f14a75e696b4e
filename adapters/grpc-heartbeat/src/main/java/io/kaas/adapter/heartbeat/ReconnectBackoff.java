package io.kaas.adapter.heartbeat;

import java.time.Duration;

/**
 * The wait before each reconnect attempt: doubling from {@code initial} up to {@code cap}, back to
 * {@code initial} once a stream works again. A controller that restarts is found within about one cap,
 * and a controller that stays down costs each broker one attempt per cap. Not thread-safe; its owner
 * guards it.
 */
final class ReconnectBackoff {
    private final long initialMs;
    private final long capMs;
    private long nextMs;

    ReconnectBackoff(Duration initial, Duration cap) {
        if (initial.isNegative() || initial.isZero() || cap.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= cap, got " + initial + " and " + cap);
        }
        this.initialMs = initial.toMillis();
        this.capMs = cap.toMillis();
        this.nextMs = initialMs;
    }

    /** The delay before the next attempt; the one after it is longer, up to the cap. */
    long nextDelayMs() {
        long delay = nextMs;
        nextMs = Math.min(nextMs * 2, capMs);
        return delay;
    }

    /** A stream works again: the next failure retries quickly. */
    void reset() {
        nextMs = initialMs;
    }
}
