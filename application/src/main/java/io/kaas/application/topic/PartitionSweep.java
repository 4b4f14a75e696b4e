package io.kaas.application.topic;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.task.PeriodicTask;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background work done to every partition log every interval, on the I/O executor: the retention
 * cleaner ({@code log.retention.check.interval.ms}: each log drops what its topic's retention no
 * longer keeps) and the producer-id expiry ({@code producer.id.expiration.check.interval.ms}: each
 * log forgets idle producers). A partition that fails is logged and retried by the next pass.
 */
public final class PartitionSweep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionSweep.class);

    /** What a pass does to one log at {@code nowMs}. */
    @FunctionalInterface
    public interface Action {
        void apply(PartitionLog log, long nowMs);
    }

    private final PeriodicTask task;

    private PartitionSweep(PeriodicTask task) {
        this.task = task;
    }

    /** Runs {@code action} over every partition log every {@code intervalMs}, first after one interval. */
    public static PartitionSweep start(String name, TopicService topics, Scheduler scheduler, Executor io, Clock clock,
                                       long intervalMs, Action action) {
        return new PartitionSweep(PeriodicTask.start(name, scheduler, io, intervalMs, () -> {
            long now = clock.nowMs();
            for (PartitionLog log : topics.logs()) {
                try {
                    action.apply(log, now);
                } catch (RuntimeException e) {
                    LOG.warn("{} of {} failed; the next pass retries", name, log.topicPartition(), e);
                }
            }
        }));
    }

    @Override
    public void close() {
        task.close();
    }
}
