package io.kaas.bootstrap;

import io.kaas.application.log.LogCleaner;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.task.PeriodicTask;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log cleaner's own thread, off the I/O executor and the event loops: every
 * {@code log.cleaner.backoff.ms} it cleans the due compacted logs until none is left.
 */
final class LogCleanerThread implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleanerThread.class);

    private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(task, "kaas-log-cleaner");
        t.setDaemon(true);
        t.setPriority(Thread.NORM_PRIORITY - 1);
        return t;
    });
    private final LogCleaner cleaner;
    private final PeriodicTask task;

    LogCleanerThread(LogCleaner cleaner, Scheduler scheduler, long backoffMs) {
        this.cleaner = cleaner;
        task = PeriodicTask.start("the log cleaner", scheduler, thread, backoffMs, () -> {
            try {
                cleaner.cleanDueLogs();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // shutting down
            }
        });
    }

    LogCleaner cleaner() {
        return cleaner;
    }

    @Override
    public void close() {
        task.close();
        cleaner.stop();
        // Never interrupt it: an interrupted read closes the java.nio channel, which it shares with fetches.
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the log cleaner did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
