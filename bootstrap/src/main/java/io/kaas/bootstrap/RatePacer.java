package io.kaas.bootstrap;

import io.kaas.application.port.out.Pacer;

/**
 * Holds the log cleaner's I/O to a byte rate, as Apache's {@code Throttler}: after each chunk, if the
 * bytes since the window began came faster than the rate, sleep until they would not have.
 */
final class RatePacer implements Pacer {
    private static final long WINDOW_NANOS = 300_000_000L;

    private final long bytesPerSecond;
    private long windowStart = System.nanoTime();
    private long bytesInWindow;

    RatePacer(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    /** The pacer for a rate; 0 or less is unlimited. */
    static Pacer of(long bytesPerSecond) {
        return bytesPerSecond > 0 ? new RatePacer(bytesPerSecond) : Pacer.UNLIMITED;
    }

    @Override
    public synchronized void pace(long bytes) throws InterruptedException {
        bytesInWindow += bytes;
        long elapsed = System.nanoTime() - windowStart;
        long allowedNanos = bytesInWindow * 1_000_000_000L / bytesPerSecond;
        if (allowedNanos > elapsed) {
            long wait = allowedNanos - elapsed;
            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        }
        if (System.nanoTime() - windowStart >= WINDOW_NANOS) {
            windowStart = System.nanoTime();
            bytesInWindow = 0;
        }
    }
}
