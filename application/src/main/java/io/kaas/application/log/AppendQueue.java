package io.kaas.application.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's appends, run one at a time in submission order on the threads allowed to do its
 * file work: they leave the event loop without losing their order and use at most one thread at a
 * time. Tasks that queue up while a turn runs are run by that turn, so a busy partition pays one
 * hand-off per burst; {@link #runTurns} lets one request pay one hand-off for all its partitions, and an
 * event loop's burst of requests one for all of theirs.
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

    /**
     * {@link #runTurns} for several requests at once: the queues join those other requests held on this
     * thread since its last {@code handOffAt} task, and that task (queued by the first of them) starts one
     * turn for all. An event loop that decodes a burst of produce requests thus wakes one I/O thread for
     * the burst, not one per request; their commits then share one {@link CommitCycle}.
     *
     * @param handOffAt runs its tasks on the caller's thread once the caller's current work is done (an
     *                  event loop's task queue); null hands off at once
     */
    public static void runTurns(List<AppendQueue> queues, Executor handOffAt) {
        if (handOffAt == null || queues.isEmpty()) {
            runTurns(queues);
            return;
        }
        HeldTurns held = HeldTurns.ON_THIS_THREAD.get();
        if (held == null || !held.add(queues)) {
            HeldTurns next = new HeldTurns(queues);
            HeldTurns.ON_THIS_THREAD.set(next);
            try {
                handOffAt.execute(next::release);
            } catch (RejectedExecutionException stopping) {
                next.release(); // the loop is shutting down: the appends still run, at once
            }
        }
    }

    /** The queues requests held on one thread until its {@code handOffAt} task, then run in one turn. */
    private static final class HeldTurns {
        private static final ThreadLocal<HeldTurns> ON_THIS_THREAD = new ThreadLocal<>();

        private final List<AppendQueue> queues;
        private boolean released;

        HeldTurns(List<AppendQueue> queues) {
            this.queues = new ArrayList<>(queues);
        }

        /** Adds a request's queues; false once released (the caller then starts a new batch). */
        synchronized boolean add(List<AppendQueue> more) {
            if (!released) {
                queues.addAll(more);
            }
            return !released;
        }

        void release() {
            synchronized (this) {
                released = true;
            }
            if (ON_THIS_THREAD.get() == this) {
                ON_THIS_THREAD.remove();
            }
            runTurns(queues); // a queue listed twice is drained by its first turn
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
