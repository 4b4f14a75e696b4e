package io.kaas.application.metrics;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One listener's connections: open now, accepted since start, and those the connection limits refused (closed
 * unserved) or held back, by limit.
 */
public final class ConnectionCount {
    private final LongAdder open = new LongAdder();
    private final LongAdder accepted = new LongAdder();
    private final Map<String, LongAdder> refused = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> held = new ConcurrentHashMap<>();

    public void opened() {
        open.increment();
        accepted.increment();
    }

    public void closed() {
        open.decrement();
    }

    /** @param closed refused (closed unserved) rather than held back */
    public void limited(String limit, boolean closed) {
        (closed ? refused : held).computeIfAbsent(limit, l -> new LongAdder()).increment();
    }

    public long open() {
        return open.sum();
    }

    public long accepted() {
        return accepted.sum();
    }

    /** Connections closed unserved since start, by the limit that refused them. */
    public Map<String, LongAdder> refused() {
        return Collections.unmodifiableMap(refused);
    }

    /** Connections the listener held back (stopped accepting for) since start, by the limit that held them. */
    public Map<String, LongAdder> held() {
        return Collections.unmodifiableMap(held);
    }
}
