package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.ProducerFenceLog;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.producer.ProducerStateService;
import io.kaas.application.task.PeriodicTask;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
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
    private volatile PeriodicTask abortSweep;
    private volatile PeriodicTask expirySweep;

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

    /** Queue entries being applied: producer id and epoch. */
    private final Set<String> applying = ConcurrentHashMap.newKeySet();

    public void start() {
        io.execute(coordinator::reconcile);
        abortSweep = PeriodicTask.start("the transaction sweep", scheduler, io, settings.abortTimedOutIntervalMs(),
                this::sweep);
        expirySweep = PeriodicTask.start("the transactional-id expiry", scheduler, io,
                settings.removeExpiredIntervalMs(), this::expire);
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
     * every marker in it is durable (or has nothing left to mark). An entry still being applied by an
     * earlier pass is left to it. Blocking (reads the queue): an I/O or control thread.
     */
    public void applyQueuedMarkers() {
        int self = cluster.self().id();
        List<MarkerQueue.QueuedMarkers> entries;
        try {
            entries = queue.pending(self);
        } catch (RuntimeException e) {
            LOG.warn("cannot read the marker queue: {}", e.toString());
            return;
        }
        for (MarkerQueue.QueuedMarkers entry : entries) {
            String key = entry.producerId() + "/" + entry.producerEpoch();
            if (!applying.add(key)) {
                continue;
            }
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
            }).whenComplete((v, e) -> applying.remove(key));
        }
    }

    private static boolean nothingLeft(KafkaError error) {
        return error == KafkaError.NONE || error == KafkaError.UNKNOWN_TOPIC_OR_PARTITION
                || error == KafkaError.INVALID_PRODUCER_EPOCH || error == KafkaError.TRANSACTION_COORDINATOR_FENCED;
    }

    @Override
    public void close() {
        for (PeriodicTask task : new PeriodicTask[] {abortSweep, expirySweep}) {
            if (task != null) {
                task.close();
            }
        }
    }
}
