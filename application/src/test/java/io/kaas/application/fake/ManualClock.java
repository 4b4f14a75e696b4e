package io.kaas.application.fake;

import io.kaas.application.port.out.Clock;

/** A {@link Clock} that moves only when told to. */
public final class ManualClock implements Clock {
    /** A realistic epoch time (2023-11-14), so code that treats 0 or small values specially is not fooled. */
    public static final long DEFAULT_START_MS = 1_700_000_000_000L;

    private volatile long nowMs;

    public ManualClock() {
        this(DEFAULT_START_MS);
    }

    public ManualClock(long startMs) {
        this.nowMs = startMs;
    }

    @Override
    public long nowMs() {
        return nowMs;
    }

    /** Moves time forward; time never goes back. */
    public synchronized void advance(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("time cannot go back: " + ms);
        }
        nowMs += ms;
    }
}
