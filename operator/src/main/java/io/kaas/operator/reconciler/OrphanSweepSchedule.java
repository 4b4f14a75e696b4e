package io.kaas.operator.reconciler;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the orphan sweep while this operator leads: a pass when it starts (on winning the election), then one every
 * interval (five minutes in production), on its own daemon thread.
 */
public final class OrphanSweepSchedule implements AutoCloseable {
    /** The book's cadence. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

    private final Runnable sweep;
    private final Duration interval;
    private ScheduledExecutorService executor;

    public OrphanSweepSchedule(Runnable sweep, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the sweep interval must be positive: " + interval);
        }
        this.sweep = sweep;
        this.interval = interval;
    }

    /** Starts the passes; a no-op while they run. */
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kaas-orphan-sweep");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(sweep, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the passes; one under way finishes. */
    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdown();
            executor = null;
        }
    }
}
