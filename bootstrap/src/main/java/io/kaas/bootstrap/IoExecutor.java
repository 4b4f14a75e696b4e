package io.kaas.bootstrap;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for blocking file work: fsyncs, index and snapshot writes, retention. Each partition
 * uses at most one at a time, so a slow volume delays partitions, not the network threads.
 */
final class IoExecutor extends ThreadPoolExecutor {
    private static final int THREADS = 32;

    IoExecutor() {
        super(THREADS, THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemonThreads());
        allowCoreThreadTimeOut(true);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "kaas-io-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
