package io.kaas.adapter.wire.support;

import io.kaas.application.port.out.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs scheduled tasks only when the test advances time, on the test's thread, so timeouts (a
 * parked fetch's max wait, an acks=-1 produce's timeout) fire deterministically.
 */
public final class ManualScheduler implements Scheduler {
    private final ManualClock clock;
    private final List<Task> tasks = new ArrayList<>();
    private long sequence;

    public ManualScheduler(ManualClock clock) {
        this.clock = clock;
    }

    @Override
    public Cancellable schedule(Runnable task, long delayMs) {
        Task t = new Task(clock.nowMs() + delayMs, sequence++, task);
        tasks.add(t);
        return () -> tasks.remove(t);
    }

    /** Moves the clock forward, running every task that falls due, in due order. */
    public void advance(long ms) {
        long until = clock.nowMs() + ms;
        while (true) {
            Task next = tasks.stream().filter(t -> t.dueMs <= until)
                    .min(Comparator.comparingLong(Task::dueMs).thenComparingLong(Task::sequence)).orElse(null);
            if (next == null) {
                break;
            }
            tasks.remove(next);
            clock.advance(next.dueMs - clock.nowMs());
            next.task.run();
        }
        clock.advance(until - clock.nowMs());
    }

    /** Tasks scheduled and neither run nor cancelled. */
    public int pending() {
        return tasks.size();
    }

    private record Task(long dueMs, long sequence, Runnable task) {
    }
}
