package io.kaas.application.metrics;

import java.util.concurrent.atomic.LongAdder;

/** One listener's connections: open now, and accepted since start. */
public final class ConnectionCount {
    private final LongAdder open = new LongAdder();
    private final LongAdder accepted = new LongAdder();

    public void opened() {
        open.increment();
        accepted.increment();
    }

    public void closed() {
        open.decrement();
    }

    public long open() {
        return open.sum();
    }

    public long accepted() {
        return accepted.sum();
    }
}
