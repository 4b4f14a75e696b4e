package io.kaas.adapter.k8s;

import java.time.Duration;

/**
 * How long a failed watch waits before it relists: doubling from {@code initial} up to {@code max}, back to
 * {@code initial} once the watch delivers anything. Not thread-safe: the watch's own thread uses it.
 */
final class RestartBackoff {
    private final long initialMs;
    private final long maxMs;
    private long nextMs;

    RestartBackoff(Duration initial, Duration max) {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max, got " + initial + " and " + max);
        }
        this.initialMs = initial.toMillis();
        this.maxMs = max.toMillis();
        this.nextMs = initialMs;
    }

    /** The delay before the next restart; each call without a {@link #reset()} in between doubles the one after. */
    long nextDelayMs() {
        long delay = nextMs;
        nextMs = Math.min(maxMs, nextMs * 2);
        return delay;
    }

    void reset() {
        nextMs = initialMs;
    }
}
