package io.kaas.application.log;

import java.util.ArrayList;
import java.util.List;

/**
 * The group commits an I/O task's appends ask for, run by that same task once its appends are done,
 * instead of one pool task per partition: a produce request's partitions are fsynced back to back on
 * the thread that appended them, with no other thread woken for them. While they are, appends on
 * other threads to those partitions only add waiters (their committers still run), so each round
 * covers what arrived during the last one: the rounds pace themselves by how fast the disk
 * completes flushes. Partitions take turns, one commit each per round, so a busy one cannot hold
 * back the others' waiters.
 *
 * <p>Per I/O thread and reused: a request costs no allocation here.
 */
final class CommitCycle {
    private static final ThreadLocal<CommitCycle> ON_THIS_THREAD = ThreadLocal.withInitial(CommitCycle::new);

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
        }
        cycle.commitClaimed();
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

    private void commitClaimed() {
        try {
            while (!claimed.isEmpty()) {
                int kept = 0;
                for (int i = 0; i < claimed.size(); i++) {
                    GroupCommitter committer = claimed.get(i);
                    if (committer.commitOnce()) {
                        claimed.set(kept++, committer);
                    }
                }
                claimed.subList(kept, claimed.size()).clear();
            }
        } finally {
            // Only after an unexpected failure: the committers still running go on from the pool.
            claimed.forEach(GroupCommitter::continueOnPool);
            claimed.clear();
        }
    }
}
