package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.MarkerQueue.QueuedMarkers;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.topic.TopicPartition;
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
 * Places a prepared transaction's markers on partitions other brokers lead, through the
 * {@link MarkerQueue}, and completes once every one is durable there.
 *
 * <p>A queued entry is not yet a placed marker: were the transaction completed while its entry
 * waits, the producer's next transaction could append to the same partition ahead of the marker,
 * which would then end that transaction's records too. So the coordinator waits, as Apache's waits
 * for its WriteTxnMarkers responses, until each target has applied its entry and removed it,
 * looking every {@code pollMs}. A partition whose leader changes meanwhile is queued again for the
 * new leader (or written here, when that is this broker) and the old entry is replaced by one
 * without it; a partition no broker leads waits for one. Past {@code deadlineMs} the delivery
 * fails: the transaction stays prepared, and the client's retry or the sweeper's reconcile starts
 * it again from the durable dispatch set.
 */
final class PeerMarkerDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(PeerMarkerDelivery.class);
    private static final int NOT_QUEUED = -1;

    private final TxnMarkerWriter writer;
    private final MarkerQueue queue;
    private final ClusterUseCase cluster;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private final long pollMs;
    private final long deadlineMs;

    PeerMarkerDelivery(TxnMarkerWriter writer, MarkerQueue queue, ClusterUseCase cluster, Clock clock,
                       Scheduler scheduler, Executor io, long pollMs, long deadlineMs) {
        this.writer = writer;
        this.queue = queue;
        this.cluster = cluster;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
        this.pollMs = pollMs;
        this.deadlineMs = deadlineMs;
    }

    /** Completes once every partition's marker is durable on its leader, or fails past the deadline. */
    CompletableFuture<Void> deliver(TxnMarker marker, Collection<TopicPartition> partitions) {
        Delivery delivery = new Delivery(marker, partitions, clock.nowMs() + deadlineMs);
        io.execute(delivery::pass);
        return delivery.done;
    }

    private final class Delivery {
        private final TxnMarker marker;
        /** Each partition still owed its marker, with the broker whose queue holds it (or NOT_QUEUED). */
        private final Map<TopicPartition, Integer> owed = new HashMap<>();
        private final Set<TopicPartition> writingHere = new HashSet<>();
        private final long deadline;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Delivery(TxnMarker marker, Collection<TopicPartition> partitions, long deadline) {
            this.marker = marker;
            this.deadline = deadline;
            partitions.forEach(tp -> owed.put(tp, NOT_QUEUED));
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

        /** An entry its target removed has every marker in it durable. */
        private void forgetApplied() {
            queuedByBroker().forEach((broker, partitions) -> {
                if (!queue.isPending(broker, entry(partitions))) {
                    partitions.forEach(owed::remove);
                }
            });
        }

        /** Queues each partition for its current leader: the new entries first, then the ones they replace go. */
        private void route() {
            Map<Integer, List<TopicPartition>> before = queuedByBroker();
            Map<TopicPartition, Integer> next = new HashMap<>(owed);
            Set<Integer> changed = new HashSet<>();
            List<TopicPartition> here = new ArrayList<>();
            int self = cluster.self().id();
            owed.forEach((tp, queuedAt) -> {
                int leader = cluster.leaderOf(tp.topic(), tp.partition());
                if (leader == queuedAt || leader < 0 || writingHere.contains(tp)) {
                    return;
                }
                changed.add(queuedAt);
                if (leader == self) {
                    next.put(tp, NOT_QUEUED);
                    here.add(tp);
                } else {
                    next.put(tp, leader);
                    changed.add(leader);
                }
            });
            changed.remove(NOT_QUEUED);
            Map<Integer, List<TopicPartition>> after = byBroker(next);
            for (int broker : changed) {
                if (after.containsKey(broker)) {
                    queue.enqueue(broker, entry(after.get(broker)));
                }
            }
            owed.putAll(next);
            for (int broker : changed) {
                List<TopicPartition> old = before.get(broker);
                if (old != null && (!after.containsKey(broker) || !entry(old).equals(entry(after.get(broker))))) {
                    queue.remove(broker, entry(old));
                }
            }
            here.forEach(this::writeHere);
        }

        private void writeHere(TopicPartition tp) {
            writingHere.add(tp);
            writer.write(tp, marker).whenCompleteAsync((error, failure) -> {
                synchronized (this) {
                    writingHere.remove(tp);
                    if (failure == null && TxnMarkerWriter.settled(error)) {
                        owed.remove(tp);
                    }
                }
            }, io);
        }

        private Map<Integer, List<TopicPartition>> queuedByBroker() {
            return byBroker(owed);
        }

        private QueuedMarkers entry(List<TopicPartition> partitions) {
            return new QueuedMarkers(marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(),
                    marker.commit(), partitions);
        }
    }

    private static Map<Integer, List<TopicPartition>> byBroker(Map<TopicPartition, Integer> queuedAt) {
        Map<Integer, List<TopicPartition>> out = new TreeMap<>();
        queuedAt.forEach((tp, broker) -> {
            if (broker != NOT_QUEUED) {
                out.computeIfAbsent(broker, b -> new ArrayList<>()).add(tp);
            }
        });
        return out;
    }
}
