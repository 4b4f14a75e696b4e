package io.kaas.domain.quota;

/**
 * How a quota's rate is measured: over {@code samples} windows of {@code sampleMs} each, the last one still
 * filling (Apache's {@code quota.window.num}, default 11, and {@code quota.window.size.seconds}, default 1).
 */
public record QuotaWindow(int samples, long sampleMs) {
    public static final QuotaWindow DEFAULT = new QuotaWindow(11, 1_000L);

    public QuotaWindow {
        if (samples < 1) {
            throw new IllegalArgumentException("quota.window.num must be at least 1, not " + samples);
        }
        if (sampleMs < 1) {
            throw new IllegalArgumentException("quota.window.size must be at least 1 ms, not " + sampleMs);
        }
    }

    /**
     * The most a client may use in one go without a throttle being certain even after an idle window: what
     * Apache caps a throttled client's fetch size at ({@code getMaxValueInQuotaWindow}).
     */
    public double maxValueInWindow(double bound) {
        return bound * (samples - 1) * sampleMs / 1_000d;
    }

    /**
     * The most a {@link TokenBucket} holds for {@code bound} per second: the whole window's worth (Apache's
     * {@code TokenBucket} burst, {@code samples * window * bound}).
     */
    public double burst(double bound) {
        return bound * samples * sampleMs / 1_000d;
    }
}
