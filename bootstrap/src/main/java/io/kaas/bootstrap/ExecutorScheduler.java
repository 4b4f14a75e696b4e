package io.kaas.bootstrap;

import io.kaas.application.port.out.Scheduler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs scheduled use-case work on one daemon thread; tasks must be short and must not block. */
final class ExecutorScheduler implements Scheduler, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    ExecutorScheduler() {
        executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "kaas-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Cancellable schedule(Runnable task, long delayMs) {
        var future = executor.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("scheduled task failed", e);
            }
        }, Math.max(delayMs, 0), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
