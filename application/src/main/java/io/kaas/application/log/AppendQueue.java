package io.kaas.application.log;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's appends, run one at a time in submission order on the threads allowed to do its
 * file work: they leave the event loop without losing their order and use at most one thread at a
 * time. Tasks that queue up while a turn runs are run by that turn, so a busy partition pays one
 * hand-off per burst; {@link #runTurns} lets one request pay one hand-off for all its partitions.
 */
public final class AppendQueue implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(AppendQueue.class);

    private final Executor threads;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inTurn = new AtomicBoolean();

    /** @param threads where a turn runs: the I/O executor for a log on files, the caller's thread in memory */
    public AppendQueue(Executor threads) {
        this.threads = threads;
    }

    /** Queues a task and starts a turn for it unless one is running. */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        startTurn();
    }

    /**
     * Queues a task without starting a turn: the caller promises one, by passing this queue to
     * {@link #runTurns} with the other queues its request touched.
     */
    public void hold(Runnable task) {
        tasks.add(task);
    }

    /**
     * One hand-off for several queues (those one request's partitions held tasks on): a single task
     * on the first queue's threads runs a turn of each, in order, skipping a queue whose turn already
     * runs elsewhere (that turn runs what was held). A broker's logs share one set of threads.
     */
    public static void runTurns(List<AppendQueue> queues) {
        if (!queues.isEmpty()) {
            queues.get(0).threads.execute(() -> CommitCycle.appendThenCommit(
                    () -> queues.forEach(AppendQueue::runTurnHere)));
        }
    }

    private void startTurn() {
        if (inTurn.compareAndSet(false, true)) {
            threads.execute(() -> CommitCycle.appendThenCommit(this::drain));
        }
    }

    private void runTurnHere() {
        if (inTurn.compareAndSet(false, true)) {
            drain();
        }
    }

    private void drain() {
        try {
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("an append task failed; the next ones still run", e);
                }
            }
        } finally {
            inTurn.set(false);
            if (!tasks.isEmpty()) {
                startTurn(); // a task added after the last poll and before the turn ended
            }
        }
    }
}
