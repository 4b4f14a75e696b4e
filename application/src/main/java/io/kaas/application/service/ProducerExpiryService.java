package io.kaas.application.service;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import java.util.concurrent.Executor;

/**
 * Every {@code producer.id.expiration.check.interval.ms} each partition forgets the producers idle
 * for {@code producer.id.expiration.ms} (Apache 3.7's defaults: 10 minutes and 1 day). Every
 * idempotent producer instance has its own id, so without this a long-running broker's producer
 * state — and each snapshot — grows with every client restart.
 */
public final class ProducerExpiryService implements AutoCloseable {
    private final TopicService topics;
    private final Scheduler scheduler;
    private final Executor io;
    private final Clock clock;
    private final long expirationMs;
    private final long checkIntervalMs;
    private volatile PeriodicTask task;

    public ProducerExpiryService(TopicService topics, Scheduler scheduler, Executor io, Clock clock, long expirationMs,
                                 long checkIntervalMs) {
        this.topics = topics;
        this.scheduler = scheduler;
        this.io = io;
        this.clock = clock;
        this.expirationMs = expirationMs;
        this.checkIntervalMs = checkIntervalMs;
    }

    public void start() {
        task = PeriodicTask.start("the producer-id expiry", scheduler, io, checkIntervalMs, this::expire);
    }

    /** One pass over every partition. */
    public void expire() {
        long now = clock.nowMs();
        for (PartitionLog log : topics.logs()) {
            log.expireProducers(now, expirationMs);
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
