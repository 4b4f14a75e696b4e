package io.kaas.adapter.wire.support;

import io.kaas.application.port.out.Clock;

/** A clock that moves only when the test says so. */
public final class ManualClock implements Clock {
    private long nowMs;

    public ManualClock(long startMs) {
        this.nowMs = startMs;
    }

    @Override
    public long nowMs() {
        return nowMs;
    }

    public void advance(long ms) {
        nowMs += ms;
    }
}
