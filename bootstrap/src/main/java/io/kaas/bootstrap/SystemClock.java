package io.kaas.bootstrap;

import io.kaas.application.port.out.Clock;

/** The wall clock. */
final class SystemClock implements Clock {
    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }
}
