package io.kaas.application.service;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.ProducerFenceLog;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.application.log.TxnMarker;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator's background work, on the I/O executor:
 * <ul>
 *   <li>every {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10 s): abort the
 *       overdue Ongoing transactions (the reaper), complete the prepared ones nobody is completing
 *       (the reconcile, which finishes a commit whose producer died mid-way and every reaper abort),
 *       apply the markers peers queued for this broker, and the fences peers logged;</li>
 *   <li>every {@code transaction.remove.expired.transaction.cleanup.interval.ms} (1 h): forget idle
 *       transactional ids and prune this broker's fence log.</li>
 * </ul>
 * {@link #start} also runs one reconcile at once, so transactions prepared before a restart finish
 * without waiting for the first tick.
 */
public final class TxnSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TxnSweeper.class);

    private final TransactionCoordinatorService coordinator;
    private final ProducerStateService producers;
    private final TxnMarkerWriter markers;
    private final MarkerQueue queue;
    private final ProducerFenceLog fenceLog;
    private final ClusterUseCase cluster;
    private final TransactionSettings settings;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile Scheduler.Cancellable nextAbort;
    private volatile Scheduler.Cancellable nextExpiry;

    public TxnSweeper(TransactionCoordinatorService coordinator, ProducerStateService producers, TxnMarkerWriter markers,
                      MarkerQueue queue, ProducerFenceLog fenceLog, ClusterUseCase cluster, TransactionSettings settings,
                      Clock clock, Scheduler scheduler, Executor io) {
        this.coordinator = coordinator;
        this.producers = producers;
        this.markers = markers;
        this.queue = queue;
        this.fenceLog = fenceLog;
        this.cluster = cluster;
        this.settings = settings;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
    }

    public void start() {
        io.execute(coordinator::reconcile);
        scheduleAbortSweep();
        scheduleExpirySweep();
    }

    /** One pass of the frequent sweep. */
    public void sweep() {
        coordinator.abortTimedOut();
        coordinator.reconcile();
        applyQueuedMarkers();
        producers.applyPeerFences();
    }

    /** One pass of the hourly sweep. */
    public void expire() {
        coordinator.expireIdle();
        try {
            fenceLog.prune(clock.nowMs() - settings.idExpirationMs());
        } catch (RuntimeException e) {
            LOG.warn("cannot prune the fence log: {}", e.toString());
        }
    }

    /**
     * Appends the markers peers queued for this broker's partitions and removes each entry once
     * every marker in it is durable (or has nothing left to mark).
     */
    void applyQueuedMarkers() {
        int self = cluster.self().id();
        List<MarkerQueue.QueuedMarkers> entries;
        try {
            entries = queue.pending(self);
        } catch (RuntimeException e) {
            LOG.warn("cannot read the marker queue: {}", e.toString());
            return;
        }
        for (MarkerQueue.QueuedMarkers entry : entries) {
            TxnMarker marker = new TxnMarker(entry.producerId(), entry.producerEpoch(), entry.coordinatorEpoch(),
                    entry.commit());
            List<CompletableFuture<KafkaError>> written = entry.partitions().stream()
                    .map((TopicPartition tp) -> markers.write(tp, marker)).toList();
            CompletableFuture.allOf(written.toArray(CompletableFuture[]::new)).thenRunAsync(() -> {
                if (written.stream().map(CompletableFuture::join).allMatch(TxnSweeper::nothingLeft)) {
                    queue.remove(self, entry.producerId(), entry.producerEpoch());
                }
            }, io).exceptionally(e -> {
                LOG.warn("queued markers of producer {} not applied yet: {}", entry.producerId(), e.toString());
                return null;
            });
        }
    }

    private static boolean nothingLeft(KafkaError error) {
        return error == KafkaError.NONE || error == KafkaError.UNKNOWN_TOPIC_OR_PARTITION
                || error == KafkaError.INVALID_PRODUCER_EPOCH || error == KafkaError.TRANSACTION_COORDINATOR_FENCED;
    }

    private void scheduleAbortSweep() {
        nextAbort = scheduler.schedule(() -> io.execute(() -> run(this::sweep, this::scheduleAbortSweep)),
                settings.abortTimedOutIntervalMs());
    }

    private void scheduleExpirySweep() {
        nextExpiry = scheduler.schedule(() -> io.execute(() -> run(this::expire, this::scheduleExpirySweep)),
                settings.removeExpiredIntervalMs());
    }

    private void run(Runnable pass, Runnable reschedule) {
        if (stopped.get()) {
            return;
        }
        try {
            pass.run();
        } catch (RuntimeException e) {
            LOG.warn("transaction sweep failed; the next one retries", e);
        }
        reschedule.run();
    }

    @Override
    public void close() {
        stopped.set(true);
        for (Scheduler.Cancellable pending : new Scheduler.Cancellable[] {nextAbort, nextExpiry}) {
            if (pending != null) {
                pending.cancel();
            }
        }
    }
}
