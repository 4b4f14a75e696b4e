package io.kaas.application.fake;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * An {@link Executor} that only queues: tasks run when the test says so, on the test's thread. It
 * stands in for the I/O executor, so a test can look at the moment before a write is durable.
 */
public final class QueuedExecutor implements Executor {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        queue.add(task);
    }

    /** Runs queued tasks, including those they queue, until none is left; returns how many ran. */
    public int runAll() {
        int ran = 0;
        Runnable next;
        while ((next = poll()) != null) {
            next.run();
            ran++;
        }
        return ran;
    }

    public synchronized int pending() {
        return queue.size();
    }

    private synchronized Runnable poll() {
        return queue.poll();
    }
}
