package io.kaas.application.metrics;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fixed-bucket histogram recorded without locks: one {@link LongAdder} per bucket and one for
 * the sum. Bucket {@code i} counts values in {@code (bounds[i-1], bounds[i]]}; the last one counts
 * values above every bound (Prometheus's {@code le}, OpenTelemetry's explicit buckets).
 */
public final class Histogram {
    private final long[] bounds;
    private final LongAdder[] counts;
    private final LongAdder sum = new LongAdder();

    /** @param bounds the buckets' inclusive upper bounds, ascending */
    public Histogram(long... bounds) {
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("bounds must ascend: " + Arrays.toString(bounds));
            }
        }
        this.bounds = bounds.clone();
        this.counts = new LongAdder[bounds.length + 1];
        Arrays.setAll(counts, i -> new LongAdder());
    }

    /** Bounds for latencies in nanoseconds: 0.5 ms to 10 s. */
    public static Histogram latencyNanos() {
        return new Histogram(500_000L, 1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L,
                100_000_000L, 250_000_000L, 500_000_000L, 1_000_000_000L, 2_500_000_000L, 5_000_000_000L,
                10_000_000_000L);
    }

    /**
     * Bounds for the steps of a produce in nanoseconds: 10 µs to 10 s, since an append alone is
     * usually well below the 0.5 ms where {@link #latencyNanos()} starts.
     */
    public static Histogram stepNanos() {
        return new Histogram(10_000L, 25_000L, 50_000L, 100_000L, 250_000L, 500_000L, 1_000_000L, 2_500_000L,
                5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L, 100_000_000L, 250_000_000L, 500_000_000L,
                1_000_000_000L, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L);
    }

    public void record(long value) {
        int i = Arrays.binarySearch(bounds, value);
        counts[i >= 0 ? i : -i - 1].increment();
        sum.add(value);
    }

    /** The counts as they are now; buckets recorded meanwhile may or may not be in it. */
    public Snapshot snapshot() {
        long[] c = new long[counts.length];
        long total = 0;
        for (int i = 0; i < c.length; i++) {
            c[i] = counts[i].sum();
            total += c[i];
        }
        return new Snapshot(bounds.clone(), c, sum.sum(), total);
    }

    /**
     * @param bounds the buckets' upper bounds
     * @param counts one more than the bounds: the last counts values above them all
     */
    public record Snapshot(long[] bounds, long[] counts, long sum, long count) {
    }
}
