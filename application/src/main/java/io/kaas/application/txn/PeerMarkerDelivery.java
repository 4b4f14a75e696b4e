package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.MarkerQueue.QueuedMarkers;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.txn.TxnMarker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lands a prepared transaction's outcome on what other brokers own - markers on the partitions they
 * lead, staged offsets in the groups they coordinate - through the {@link MarkerQueue}, and
 * completes once every one is durable there.
 *
 * <p>A queued entry is not yet a placed marker: were the transaction completed while its entry
 * waits, the producer's next transaction could append to the same partition ahead of the marker,
 * which would then end that transaction's records too. So the coordinator waits, as Apache's waits
 * for its WriteTxnMarkers answers, until each target has applied its entry and removed it, looking
 * every {@code pollMs}. A target whose owner changes meanwhile is queued again for the new owner (or
 * applied here, when that is this broker) and the old entry is replaced by one without it; a target
 * nobody owns waits for an owner. Past {@code deadlineMs} the delivery fails: the transaction stays
 * prepared, and the client's retry or the sweeper's reconcile starts it again from the durable
 * dispatch set.
 */
final class PeerMarkerDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(PeerMarkerDelivery.class);
    private static final int NOT_QUEUED = -1;

    private final TxnMarkerWriter writer;
    private final StagedOffsets offsets;
    private final MarkerQueue queue;
    private final ClusterUseCase cluster;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private final long pollMs;
    private final long deadlineMs;

    PeerMarkerDelivery(TxnMarkerWriter writer, StagedOffsets offsets, MarkerQueue queue, ClusterUseCase cluster,
                       Clock clock, Scheduler scheduler, Executor io, long pollMs, long deadlineMs) {
        this.writer = writer;
        this.offsets = offsets;
        this.queue = queue;
        this.cluster = cluster;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
        this.pollMs = pollMs;
        this.deadlineMs = deadlineMs;
    }

    /** Completes once the outcome is durable on every target's owner, or fails past the deadline. */
    CompletableFuture<Void> deliver(TxnMarker marker, Collection<TxnOutcomeTarget> targets) {
        Delivery delivery = new Delivery(marker, targets, clock.nowMs() + deadlineMs);
        io.execute(delivery::pass);
        return delivery.done;
    }

    private final class Delivery {
        private final TxnMarker marker;
        /** Each target still owed the outcome, with the broker whose queue holds it (or NOT_QUEUED). */
        private final Map<TxnOutcomeTarget, Integer> owed = new HashMap<>();
        private final Set<TxnOutcomeTarget> applyingHere = new HashSet<>();
        private final long deadline;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Delivery(TxnMarker marker, Collection<TxnOutcomeTarget> targets, long deadline) {
            this.marker = marker;
            this.deadline = deadline;
            targets.forEach(t -> owed.put(t, NOT_QUEUED));
        }

        synchronized void pass() {
            try {
                forgetApplied();
                route();
            } catch (RuntimeException e) {
                LOG.debug("markers of producer {}: the queue is unavailable, retrying: {}", marker.producerId(),
                        e.toString());
            }
            if (owed.isEmpty()) {
                done.complete(null);
            } else if (clock.nowMs() >= deadline) {
                done.completeExceptionally(new TimeoutException("markers of producer " + marker.producerId()
                        + " not yet applied on " + owed.keySet()));
            } else {
                scheduler.schedule(() -> io.execute(this::pass), pollMs);
            }
        }

        /** An entry its target removed has everything in it durable. */
        private void forgetApplied() {
            byBroker(owed).forEach((broker, targets) -> {
                if (!queue.isPending(broker, entry(targets))) {
                    targets.forEach(owed::remove);
                }
            });
        }

        /** Queues each target for its current owner: the new entries first, then the ones they replace go. */
        private void route() {
            Map<Integer, List<TxnOutcomeTarget>> before = byBroker(owed);
            Map<TxnOutcomeTarget, Integer> next = new HashMap<>(owed);
            Set<Integer> changed = new HashSet<>();
            List<TxnOutcomeTarget> here = new ArrayList<>();
            int self = cluster.self().id();
            owed.forEach((target, queuedAt) -> {
                int owner = target.ownerIn(cluster);
                if (owner == queuedAt || owner < 0 || applyingHere.contains(target)) {
                    return;
                }
                changed.add(queuedAt);
                if (owner == self) {
                    next.put(target, NOT_QUEUED);
                    here.add(target);
                } else {
                    next.put(target, owner);
                    changed.add(owner);
                }
            });
            changed.remove(NOT_QUEUED);
            Map<Integer, List<TxnOutcomeTarget>> after = byBroker(next);
            for (int broker : changed) {
                if (after.containsKey(broker)) {
                    queue.enqueue(broker, entry(after.get(broker)));
                }
            }
            owed.putAll(next);
            for (int broker : changed) {
                List<TxnOutcomeTarget> old = before.get(broker);
                if (old != null && (!after.containsKey(broker) || !entry(old).equals(entry(after.get(broker))))) {
                    queue.remove(broker, entry(old));
                }
            }
            here.forEach(this::applyHere);
        }

        private void applyHere(TxnOutcomeTarget target) {
            applyingHere.add(target);
            CompletableFuture<Boolean> applied = target.isPartition()
                    ? writer.write(target.partition(), marker).thenApply(TxnMarkerWriter::settled)
                    : offsets.complete(target.group(), marker.producerId(), marker.commit()).thenApply(v -> true);
            applied.whenCompleteAsync((settled, failure) -> {
                synchronized (this) {
                    applyingHere.remove(target);
                    if (failure == null && settled) {
                        owed.remove(target);
                    }
                }
            }, io);
        }

        private QueuedMarkers entry(List<TxnOutcomeTarget> targets) {
            return new QueuedMarkers(marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(),
                    marker.commit(), targets.stream().filter(TxnOutcomeTarget::isPartition)
                    .map(TxnOutcomeTarget::partition).toList(),
                    targets.stream().filter(t -> !t.isPartition()).map(TxnOutcomeTarget::group).toList());
        }
    }

    private static Map<Integer, List<TxnOutcomeTarget>> byBroker(Map<TxnOutcomeTarget, Integer> queuedAt) {
        Map<Integer, List<TxnOutcomeTarget>> out = new TreeMap<>();
        queuedAt.forEach((target, broker) -> {
            if (broker != NOT_QUEUED) {
                out.computeIfAbsent(broker, b -> new ArrayList<>()).add(target);
            }
        });
        return out;
    }
}
