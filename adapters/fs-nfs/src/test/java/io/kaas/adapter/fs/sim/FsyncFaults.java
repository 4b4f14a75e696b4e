package io.kaas.adapter.fs.sim;

import java.io.InterruptedIOException;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The faults an fsync can meet: a hang (an NFS COMMIT that never returns) held on a latch the
 * test releases, so no test has to sleep; a number of forced failures; and a random failure rate.
 */
final class FsyncFaults {
    private volatile CountDownLatch hang;
    /** One permit per fsync that has started waiting on the hang, for tests to wait on. */
    private final Semaphore hungFsyncs = new Semaphore(0);
    private int failNext;

    synchronized void hang() {
        if (hang == null) {
            hang = new CountDownLatch(1);
        }
    }

    synchronized void release() {
        if (hang != null) {
            hang.countDown();
            hang = null;
        }
    }

    /** Blocks while fsyncs hang. Called without the filesystem's lock, so the rest of it stays usable. */
    void awaitIfHung() throws InterruptedIOException {
        CountDownLatch latch = hang;
        if (latch == null) {
            return;
        }
        hungFsyncs.release();
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during a hung fsync");
        }
    }

    /** Waits until one more fsync is blocked on the hang; false on timeout. */
    boolean awaitHungFsync(long timeout, TimeUnit unit) throws InterruptedException {
        return hungFsyncs.tryAcquire(timeout, unit);
    }

    /** Guarded by the filesystem's lock, like the random it draws on. */
    void failNext(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        failNext = count;
    }

    /** Whether this fsync fails. The random is drawn only when a rate is set, so faults off leaves its sequence alone. */
    boolean shouldFail(Random random, double probability) {
        if (failNext > 0) {
            failNext--;
            return true;
        }
        return probability > 0 && random.nextDouble() < probability;
    }
}
