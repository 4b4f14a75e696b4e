package io.kaas.domain.quota;

/**
 * The controller mutation quota's measure (KIP-599), as Apache's {@code TokenBucket} stat: credits refill at the
 * bound per second up to a burst of the whole quota window's worth, every mutation takes its partitions out, and
 * the balance may go below zero (a debt the client waits out). A new bucket starts full. Not thread-safe.
 */
public final class TokenBucket {
    private final QuotaWindow window;
    private double tokens;
    private long lastUpdateMs;
    private boolean started;

    public TokenBucket(QuotaWindow window) {
        this.window = window;
    }

    /** The credits left at {@code nowMs} for {@code bound} per second; below zero while in debt. */
    public double tokens(double bound, long nowMs) {
        refill(bound, nowMs);
        return tokens;
    }

    /** Takes {@code permits} out at {@code nowMs} (a negative value gives them back). */
    public void record(double permits, double bound, long nowMs) {
        refill(bound, nowMs);
        tokens = Math.min(window.burst(bound), tokens - permits);
    }

    /**
     * How long a debt of {@code tokens} takes to be paid back at {@code bound} per second, in milliseconds (Apache's
     * {@code ControllerMutationQuotaManager.throttleTimeMs}); 0 without a debt.
     */
    public static long throttleMs(double tokens, double bound) {
        return tokens >= 0 ? 0 : Math.round(-tokens / bound * 1_000);
    }

    /** When the bucket was last used: a bucket idle long enough can be dropped. */
    public long lastUpdateMs() {
        return lastUpdateMs;
    }

    private void refill(double bound, long nowMs) {
        double burst = window.burst(bound);
        // Apache's bucket starts empty at time 0, so the first refill fills it: a new client starts with a burst.
        tokens = started ? Math.min(burst, tokens + bound * (nowMs - lastUpdateMs) / 1_000d) : burst;
        started = true;
        lastUpdateMs = nowMs;
    }
}
