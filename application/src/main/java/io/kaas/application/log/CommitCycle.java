package io.kaas.application.log;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The group commits an I/O task's appends ask for, run by that same task once its appends are done,
 * instead of one pool task per partition: a produce request's partitions are fsynced {@link #CHAIN}
 * at a time, back to back, on the thread that appended them and on one more I/O thread per further
 * {@code CHAIN} (rather than one woken thread per partition). While they are, appends on
 * other threads to those partitions only add waiters (their committers still run), so each round
 * covers what arrived during the last one: the rounds pace themselves by how fast the disk
 * completes flushes. Partitions take turns, one commit each per round, so a busy one cannot hold
 * back the others' waiters.
 *
 * <p>One per I/O thread, its list reused: a request of up to {@code CHAIN} partitions allocates no list here.
 */
final class CommitCycle {
    private static final ThreadLocal<CommitCycle> ON_THIS_THREAD = ThreadLocal.withInitial(CommitCycle::new);
    /** Partitions one thread fsyncs back to back in a round; more go to other I/O threads. */
    static final int CHAIN = 2;

    private final List<GroupCommitter> claimed = new ArrayList<>();
    private boolean collecting;

    private CommitCycle() {
    }

    /** Runs {@code appends}, then the commits they started, on this thread. */
    static void appendThenCommit(Runnable appends) {
        CommitCycle cycle = ON_THIS_THREAD.get();
        if (cycle.collecting) {
            appends.run(); // nested: the outer cycle commits
            return;
        }
        cycle.collecting = true;
        try {
            appends.run();
        } finally {
            cycle.collecting = false;
            cycle.commitClaimed(); // even after a failed append: a claimed committer is running and must go on
        }
    }

    /**
     * A committer that went from idle to running: whether this thread's cycle takes it (its appends
     * are running here); otherwise the caller starts it on the I/O executor.
     */
    static boolean claim(GroupCommitter committer) {
        CommitCycle cycle = ON_THIS_THREAD.get();
        if (!cycle.collecting) {
            return false;
        }
        cycle.claimed.add(committer);
        return true;
    }

    /**
     * This thread commits the first {@link #CHAIN} partitions, and each further {@code CHAIN} go to an
     * I/O task of their own: a request's fsyncs run at most {@code CHAIN} deep (a request waits for
     * its slowest partition) while waking one thread per {@code CHAIN} partitions, not one per partition.
     */
    private void commitClaimed() {
        int claimedCount = claimed.size();
        for (int from = CHAIN; from < claimedCount; from += CHAIN) {
            List<GroupCommitter> chain = new ArrayList<>(claimed.subList(from, Math.min(claimedCount, from + CHAIN)));
            chain.get(0).io().execute(() -> commitInTurns(chain));
        }
        if (claimedCount > CHAIN) {
            claimed.subList(CHAIN, claimedCount).clear();
        }
        commitInTurns(claimed);
    }

    /** Commits each in turn, one commit per round, until all are idle. */
    private static void commitInTurns(List<GroupCommitter> committers) {
        try {
            while (!committers.isEmpty()) {
                for (Iterator<GroupCommitter> round = committers.iterator(); round.hasNext(); ) {
                    if (!round.next().commitOnce()) {
                        round.remove(); // idle now: the next append starts it again
                    }
                }
            }
        } finally {
            // Empty unless a commit failed unexpectedly: the committers still running go on from the pool.
            committers.forEach(GroupCommitter::continueOnPool);
            committers.clear();
        }
    }
}
