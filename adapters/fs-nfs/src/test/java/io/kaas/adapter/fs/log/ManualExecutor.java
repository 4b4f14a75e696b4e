package io.kaas.adapter.fs.log;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * An {@link Executor} that only queues: tasks run on the test's thread when it calls
 * {@link #runAll}, so the committer's work happens exactly where a test wants it.
 */
final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        queue.addLast(task);
    }

    synchronized int pending() {
        return queue.size();
    }

    /** Runs queued tasks, and the tasks they queue, until none is left; the count run. */
    int runAll() {
        int ran = 0;
        while (true) {
            Runnable next;
            synchronized (this) {
                next = queue.pollFirst();
            }
            if (next == null) {
                return ran;
            }
            next.run();
            ran++;
        }
    }

    /** Forgets the queued tasks, as a killed process does. */
    synchronized void drop() {
        queue.clear();
    }
}
