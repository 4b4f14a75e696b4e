package io.kaas.application.service;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retention cleaner: every {@code KAAS_RETENTION_CHECK_INTERVAL_MS} (Apache's
 * {@code log.retention.check.interval.ms}) each partition drops what its topic's retention no
 * longer keeps. The sweep runs on the I/O executor; the scheduler only times it.
 */
public final class RetentionService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionService.class);

    private final TopicService topics;
    private final Scheduler scheduler;
    private final Executor io;
    private final Clock clock;
    private final long intervalMs;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile Scheduler.Cancellable next;

    public RetentionService(TopicService topics, Scheduler scheduler, Executor io, Clock clock, long intervalMs) {
        this.topics = topics;
        this.scheduler = scheduler;
        this.io = io;
        this.clock = clock;
        this.intervalMs = intervalMs;
    }

    public void start() {
        next = scheduler.schedule(() -> io.execute(this::sweepAndReschedule), intervalMs);
    }

    /** One pass over every partition. */
    public void sweep() {
        long now = clock.nowMs();
        for (PartitionLog log : topics.logs()) {
            try {
                log.applyRetention(now);
            } catch (RuntimeException e) {
                LOG.warn("retention of {} failed; the next sweep retries", log.topicPartition(), e);
            }
        }
    }

    private void sweepAndReschedule() {
        if (stopped.get()) {
            return;
        }
        sweep();
        start();
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
