package io.kaas.adapter.wire.dispatch;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The liveness tick of the network runtime: every event loop notes the time each interval, so a
 * loop that is wedged (blocked on a lock, a file, an endless task) shows as an old tick. Readiness
 * and the controller's alive set read {@link #oldestTickAgeMs()} from another thread.
 */
public final class EventLoopTicks implements AutoCloseable {
    private final AtomicLongArray lastTickNanos;
    private final List<ScheduledFuture<?>> ticking = new ArrayList<>();

    public EventLoopTicks(List<EventLoopGroup> groups, long intervalMs) {
        List<EventExecutor> executors = new ArrayList<>();
        groups.forEach(group -> group.forEach(executors::add));
        lastTickNanos = new AtomicLongArray(executors.size());
        long now = System.nanoTime();
        for (int i = 0; i < executors.size(); i++) {
            int slot = i;
            lastTickNanos.set(slot, now);
            ticking.add(executors.get(i).scheduleAtFixedRate(() -> lastTickNanos.set(slot, System.nanoTime()),
                    intervalMs, intervalMs, TimeUnit.MILLISECONDS));
        }
    }

    /** How long ago the most behind event loop last ticked. */
    public long oldestTickAgeMs() {
        long now = System.nanoTime();
        long oldest = 0;
        for (int i = 0; i < lastTickNanos.length(); i++) {
            oldest = Math.max(oldest, now - lastTickNanos.get(i));
        }
        return TimeUnit.NANOSECONDS.toMillis(oldest);
    }

    @Override
    public void close() {
        ticking.forEach(f -> f.cancel(false));
    }
}
