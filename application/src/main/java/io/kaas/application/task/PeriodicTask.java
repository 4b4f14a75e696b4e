package io.kaas.application.task;

import io.kaas.application.port.out.Scheduler;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background pass repeated every interval until closed: the scheduler times it, the I/O executor
 * runs it (passes touch files), and a pass that throws is logged and retried by the next one.
 */
public final class PeriodicTask implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicTask.class);

    private final String name;
    private final Scheduler scheduler;
    private final Executor io;
    private final long intervalMs;
    private final Runnable pass;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile Scheduler.Cancellable next;

    private PeriodicTask(String name, Scheduler scheduler, Executor io, long intervalMs, Runnable pass) {
        this.name = name;
        this.scheduler = scheduler;
        this.io = io;
        this.intervalMs = intervalMs;
        this.pass = pass;
    }

    /** Runs {@code pass} first after {@code intervalMs}, then every {@code intervalMs} after each pass ends. */
    public static PeriodicTask start(String name, Scheduler scheduler, Executor io, long intervalMs, Runnable pass) {
        PeriodicTask task = new PeriodicTask(name, scheduler, io, intervalMs, pass);
        task.scheduleNext();
        return task;
    }

    private void scheduleNext() {
        next = scheduler.schedule(() -> io.execute(this::runAndReschedule), intervalMs);
    }

    private void runAndReschedule() {
        if (stopped.get()) {
            return;
        }
        try {
            pass.run();
        } catch (RuntimeException e) {
            LOG.warn("{} failed; the next pass retries", name, e);
        }
        scheduleNext();
    }

    @Override
    public void close() {
        stopped.set(true);
        Scheduler.Cancellable pending = next;
        if (pending != null) {
            pending.cancel();
        }
    }
}
