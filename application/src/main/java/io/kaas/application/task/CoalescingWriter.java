package io.kaas.application.task;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;

/**
 * Serialises the rewrites of one small state file (a group's offsets, a transaction slot) with
 * group commit: one write at a time runs on the I/O executor and carries every change queued
 * behind it, so concurrent changes share an fsync and land in order. A change is acknowledged only
 * once its write is durable; a failed write fails every change it carried.
 *
 * <p>Guarded by the owner's lock: {@link #submit} and {@link #isPending} are called holding it,
 * and the {@link Target} callbacks run holding it.
 *
 * @param <C> one queued change
 */
public final class CoalescingWriter<C> {

    /** What the writer writes for. */
    public interface Target<C> {
        /**
         * The blocking write that makes {@code changes} durable, computed from them (lock held), or
         * null when they change nothing. It runs without the lock and throws to fail.
         */
        Runnable prepare(List<C> changes);

        /** The changes' write finished: {@code failure} is null when it is durable (lock held). */
        void written(List<C> changes, RuntimeException failure);
    }

    private final Executor io;
    private final Object lock;
    private final Target<C> target;
    private final ArrayDeque<Queued<C>> queued = new ArrayDeque<>();
    private List<Queued<C>> writing = List.of();

    public CoalescingWriter(Executor io, Object lock, Target<C> target) {
        this.io = io;
        this.lock = lock;
        this.target = target;
    }

    /** Queues a change; the stage completes once it is durable, or fails with the write's error. */
    public CompletableFuture<Void> submit(C change) {
        Queued<C> q = new Queued<>(change, new CompletableFuture<>());
        queued.add(q);
        startWrite();
        return q.done;
    }

    /** Whether a change matching {@code test} is queued or being written. */
    public boolean isPending(Predicate<C> test) {
        return queued.stream().anyMatch(q -> test.test(q.change)) || writing.stream().anyMatch(q -> test.test(q.change));
    }

    private void startWrite() {
        if (!writing.isEmpty() || queued.isEmpty()) {
            return;
        }
        List<Queued<C>> batch = new ArrayList<>(queued);
        queued.clear();
        List<C> changes = batch.stream().map(Queued::change).toList();
        Runnable write = target.prepare(changes);
        if (write == null) {
            target.written(changes, null);
            batch.forEach(q -> q.done.complete(null)); // nothing to write
            return;
        }
        writing = batch;
        try {
            io.execute(() -> run(batch, changes, write));
        } catch (RejectedExecutionException e) {
            writing = List.of();
            target.written(changes, e);
            batch.forEach(q -> q.done.completeExceptionally(e));
        }
    }

    private void run(List<Queued<C>> batch, List<C> changes, Runnable write) {
        RuntimeException failure = null;
        try {
            write.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        synchronized (lock) {
            target.written(changes, failure);
            writing = List.of();
            startWrite();
        }
        for (Queued<C> q : batch) {
            if (failure == null) {
                q.done.complete(null);
            } else {
                q.done.completeExceptionally(failure);
            }
        }
    }

    private record Queued<C>(C change, CompletableFuture<Void> done) {
    }
}
