package io.kaas.application.log;

import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.VerificationGuard;
import java.util.List;

/**
 * What every partition log does with its producer state beyond appends, under the log's own lock
 * (the one its appends hold): verification, fencing, expiry and DescribeProducers.
 */
abstract class ProducerTrackingLog implements PartitionLog {
    /** Guarded by {@code this}. */
    protected final ProducerStateTable producers;

    protected ProducerTrackingLog(ProducerStateTable producers) {
        this.producers = producers;
    }

    @Override
    public synchronized VerificationGuard beginVerification(long producerId, long nowMs) {
        return producers.beginVerification(producerId, nowMs);
    }

    @Override
    public synchronized void fence(long producerId, short epoch) {
        producers.fence(producerId, epoch);
    }

    @Override
    public synchronized void expireProducers(long nowMs, long expirationMs) {
        producers.expireIdle(nowMs, expirationMs);
    }

    @Override
    public synchronized List<ProducerState> producers() {
        return TransactionalState.describe(producers);
    }
}
