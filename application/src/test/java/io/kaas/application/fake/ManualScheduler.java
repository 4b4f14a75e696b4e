package io.kaas.application.fake;

import io.kaas.application.port.out.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} driven by hand: tasks run only inside {@link #advance}, on the caller's
 * thread, in due-time order (ties in scheduling order). It shares a {@link ManualClock}, which
 * reads each task's due time while the task runs, so code under test sees consistent time.
 */
public final class ManualScheduler implements Scheduler {
    private final ManualClock clock;
    private final PriorityQueue<Task> queue =
            new PriorityQueue<>(Comparator.comparingLong((Task t) -> t.dueMs).thenComparingLong(t -> t.seq));
    private long nextSeq;

    /** A scheduler with its own clock, see {@link #clock()}. */
    public ManualScheduler() {
        this(new ManualClock());
    }

    public ManualScheduler(ManualClock clock) {
        this.clock = clock;
    }

    public ManualClock clock() {
        return clock;
    }

    /** Schedules at now + {@code delayMs}; a negative delay counts as 0 (due at the next {@link #advance}). */
    @Override
    public synchronized Cancellable schedule(Runnable task, long delayMs) {
        Task t = new Task(clock.nowMs() + Math.max(delayMs, 0), nextSeq++, task);
        queue.add(t);
        return t;
    }

    /**
     * Moves time forward by {@code ms}, running every task that falls due on the way, including
     * tasks those tasks schedule within the window. {@code advance(0)} runs what is due now.
     */
    public void advance(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("time cannot go back: " + ms);
        }
        long target = clock.nowMs() + ms;
        while (true) {
            Task next;
            synchronized (this) {
                next = queue.peek();
                if (next == null || next.dueMs > target) {
                    break;
                }
                queue.poll();
            }
            if (next.dueMs > clock.nowMs()) {
                clock.advance(next.dueMs - clock.nowMs());
            }
            next.task.run(); // outside the lock: the task may schedule or cancel
        }
        if (target > clock.nowMs()) {
            clock.advance(target - clock.nowMs());
        }
    }

    /** Tasks ever scheduled, run and cancelled ones included. */
    public synchronized long scheduledEver() {
        return nextSeq;
    }

    /** Tasks scheduled, not yet run and not cancelled. */
    public synchronized int pending() {
        return queue.size();
    }

    /** Due times of the pending tasks, earliest first. */
    public synchronized List<Long> pendingDueTimes() {
        List<Task> tasks = new ArrayList<>(queue);
        tasks.sort(queue.comparator());
        return tasks.stream().map(t -> t.dueMs).toList();
    }

    private final class Task implements Cancellable {
        final long dueMs;
        final long seq;
        final Runnable task;

        Task(long dueMs, long seq, Runnable task) {
            this.dueMs = dueMs;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            synchronized (ManualScheduler.this) {
                queue.remove(this);
            }
        }
    }
}
