package io.kaas.adapter.fs.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;

/**
 * The broker's I/O executor, run by hand on the test's thread: tasks only queue until the
 * simulation runs them, one at a time and each to completion. The production executor is a pool
 * of 32 threads, so queued tasks of different partitions, groups and slots may finish in any
 * order: {@link #runOne} usually takes the oldest task, sometimes any other, as the seed decides.
 * (The application test-jar's {@code QueuedExecutor} runs only everything, in order; this one
 * needs single steps, a chosen order and a way to drop the queue of a dead process.)
 *
 * <p>A task that throws is counted and otherwise ignored, as a pool thread's uncaught exception is.
 */
final class SimExecutor implements Executor {
    private final List<Runnable> queue = new ArrayList<>();
    private final Random random;
    private int failedTasks;

    SimExecutor(Random random) {
        this.random = random;
    }

    @Override
    public void execute(Runnable task) {
        queue.add(task);
    }

    int pending() {
        return queue.size();
    }

    int failedTasks() {
        return failedTasks;
    }

    /** Runs one queued task: usually the oldest, one time in four any of them. False if none was queued. */
    boolean runOne() {
        if (queue.isEmpty()) {
            return false;
        }
        int index = queue.size() > 1 && random.nextInt(4) == 0 ? random.nextInt(queue.size()) : 0;
        Runnable task = queue.remove(index);
        try {
            task.run();
        } catch (RuntimeException e) {
            failedTasks++;
        }
        return true;
    }

    /** Runs tasks, and those they queue, until none is left; fails past {@code limit} (a task that requeues itself forever). */
    int runAll(int limit) {
        int ran = 0;
        while (runOne()) {
            if (++ran > limit) {
                throw new AssertionError("the I/O queue never drains: " + ran + " tasks run, " + queue.size() + " queued");
            }
        }
        return ran;
    }

    /** The process died: its queued work never runs. */
    void drop() {
        queue.clear();
    }
}
