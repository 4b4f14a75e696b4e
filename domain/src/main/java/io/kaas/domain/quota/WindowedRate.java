package io.kaas.domain.quota;

/**
 * A rate per second measured over a ring of samples, as Apache's {@code Rate} over a {@code SampledTotal}: a value
 * lands in the current sample, a sample is complete once it is a window old, the oldest sample is recycled for the
 * next one, and samples that started a whole ring ago count nothing. The rate divides the samples' sum by the time
 * they cover, but never by less than {@code samples - 1} windows, so a first burst is not measured over a few
 * milliseconds. Not thread-safe; allocates only when the ring first fills.
 */
public final class WindowedRate {
    private final QuotaWindow window;
    private final double[] values;
    private final long[] starts;
    private int size;
    private int current;

    public WindowedRate(QuotaWindow window) {
        this.window = window;
        this.values = new double[window.samples()];
        this.starts = new long[window.samples()];
    }

    /** Adds {@code value} (negative to take back what was recorded) at {@code nowMs}. */
    public void record(double value, long nowMs) {
        ensureSample(nowMs);
        if (nowMs - starts[current] >= window.sampleMs()) {
            current = (current + 1) % values.length;
            if (current >= size) {
                size++;
            }
            values[current] = 0;
            starts[current] = nowMs;
        }
        values[current] += value;
    }

    /** The rate per second at {@code nowMs}. */
    public double perSecond(long nowMs) {
        purgeObsolete(nowMs);
        double sum = 0;
        for (int i = 0; i < size; i++) {
            sum += values[i];
        }
        return sum / (windowMs(nowMs) / 1_000d);
    }

    /**
     * The time the rate is measured over at {@code nowMs}: since the oldest sample started, at least
     * {@code samples - 1} windows and at least 1 ms (Apache's {@code Rate.windowSize}).
     */
    public long windowMs(long nowMs) {
        purgeObsolete(nowMs);
        ensureSample(nowMs);
        long oldest = starts[0];
        for (int i = 1; i < size; i++) {
            oldest = Math.min(oldest, starts[i]);
        }
        long elapsed = nowMs - oldest;
        long fullWindows = elapsed / window.sampleMs();
        long minFullWindows = window.samples() - 1L;
        if (fullWindows < minFullWindows) {
            elapsed += (minFullWindows - fullWindows) * window.sampleMs();
        }
        return Math.max(elapsed, 1L);
    }

    private void ensureSample(long nowMs) {
        if (size == 0) {
            size = 1;
            current = 0;
            values[0] = 0;
            starts[0] = nowMs;
        }
    }

    /** A sample that started a whole ring ago is reset to start now, empty. */
    private void purgeObsolete(long nowMs) {
        long expireAge = (long) window.samples() * window.sampleMs();
        for (int i = 0; i < size; i++) {
            if (nowMs - starts[i] >= expireAge) {
                values[i] = 0;
                starts[i] = nowMs;
            }
        }
    }
}
