package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.ProducerFenceLog;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.producer.ProducerStateService;
import io.kaas.application.task.PeriodicTask;
import io.kaas.domain.txn.TxnMarker;
import java.util.List;
import java.util.Map;
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
    private final StagedOffsets offsets;
    private final MarkerQueue queue;
    private final ProducerFenceLog fenceLog;
    private final ClusterUseCase cluster;
    private final TransactionSettings settings;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private volatile PeriodicTask abortSweep;
    private volatile PeriodicTask expirySweep;
    private volatile PeriodicTask queueWatch;

    TxnSweeper(TransactionCoordinatorService coordinator, ProducerStateService producers, TxnMarkerWriter markers,
                      StagedOffsets offsets, MarkerQueue queue, ProducerFenceLog fenceLog, ClusterUseCase cluster, TransactionSettings settings,
                      Clock clock, Scheduler scheduler, Executor io) {
        this.coordinator = coordinator;
        this.producers = producers;
        this.markers = markers;
        this.offsets = offsets;
        this.queue = queue;
        this.fenceLog = fenceLog;
        this.cluster = cluster;
        this.settings = settings;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
    }

    /** Queue entries being applied, by key. */
    private final Set<String> applying = ConcurrentHashMap.newKeySet();
    /** What of each queued entry is applied, by key: not applied again. */
    private final Map<String, Set<TxnOutcomeTarget>> placed = new ConcurrentHashMap<>();

    public void start() {
        io.execute(coordinator::reconcile);
        abortSweep = PeriodicTask.start("the transaction sweep", scheduler, io, settings.abortTimedOutIntervalMs(),
                this::sweep);
        expirySweep = PeriodicTask.start("the transactional-id expiry", scheduler, io,
                settings.removeExpiredIntervalMs(), this::expire);
    }

    /**
     * In a cluster: applies the markers peers queue for this broker every
     * {@link TransactionServices#MARKER_QUEUE_POLL_MS}, since their coordinators wait for them.
     */
    public void watchMarkerQueue() {
        queueWatch = PeriodicTask.start("the marker queue watch", scheduler, io, TransactionServices.MARKER_QUEUE_POLL_MS,
                this::applyQueuedMarkers);
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
     * Applies what peers' coordinators queued for this broker - markers on the partitions it leads,
     * staged offsets in the groups it coordinates - and removes each entry once all of it is durable
     * (or has nothing left to mark). An entry still being applied by an
     * earlier pass is left to it; a marker already placed is not appended again while others in its
     * entry wait (for a partition this broker does not lead yet, say). Blocking (reads the queue): an
     * I/O or control thread.
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
        placed.keySet().retainAll(entries.stream().map(MarkerQueue.QueuedMarkers::key).toList());
        for (MarkerQueue.QueuedMarkers entry : entries) {
            String key = entry.key();
            if (!applying.add(key)) {
                continue;
            }
            Set<TxnOutcomeTarget> done = placed.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
            TxnMarker marker = new TxnMarker(entry.producerId(), entry.producerEpoch(), entry.coordinatorEpoch(),
                    entry.commit());
            List<TxnOutcomeTarget> targets = TxnOutcomeTarget.all(entry.partitions(), entry.groups());
            List<CompletableFuture<Void>> written = targets.stream().filter(t -> !done.contains(t))
                    .map(t -> apply(t, marker).thenAccept(settled -> {
                        if (settled) {
                            done.add(t);
                        }
                    })).toList();
            CompletableFuture.allOf(written.toArray(CompletableFuture[]::new)).thenRunAsync(() -> {
                if (done.containsAll(targets)) {
                    queue.remove(self, entry);
                    placed.remove(key);
                }
            }, io).exceptionally(e -> {
                LOG.warn("queued markers of producer {} not applied yet: {}", entry.producerId(), e.toString());
                return null;
            }).whenComplete((v, e) -> applying.remove(key));
        }
    }

    /** A marker appended (or nothing left to mark), or the group's staged offsets ended. */
    private CompletableFuture<Boolean> apply(TxnOutcomeTarget target, TxnMarker marker) {
        if (target.isPartition()) {
            return markers.write(target.partition(), marker).thenApply(TxnMarkerWriter::settled);
        }
        return offsets.complete(target.group(), marker.producerId(), marker.commit()).handle((v, failure) -> {
            if (failure != null) {
                LOG.debug("queued offsets of producer {} in group {} not ended yet: {}", marker.producerId(),
                        target.group(), failure.toString());
            }
            return failure == null;
        });
    }

    @Override
    public void close() {
        for (PeriodicTask task : new PeriodicTask[] {abortSweep, expirySweep, queueWatch}) {
            if (task != null) {
                task.close();
            }
        }
    }
}
