package io.kaas.application.service;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import java.util.concurrent.Executor;
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
    private volatile PeriodicTask task;

    public RetentionService(TopicService topics, Scheduler scheduler, Executor io, Clock clock, long intervalMs) {
        this.topics = topics;
        this.scheduler = scheduler;
        this.io = io;
        this.clock = clock;
        this.intervalMs = intervalMs;
    }

    public void start() {
        task = PeriodicTask.start("the retention sweep", scheduler, io, intervalMs, this::sweep);
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

    @Override
    public void close() {
        PeriodicTask running = task;
        if (running != null) {
            running.close();
        }
    }
}
