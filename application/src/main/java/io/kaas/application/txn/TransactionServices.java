package io.kaas.application.txn;

import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.ProducerFenceLog;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.producer.ProducerStateService;
import io.kaas.application.topic.TopicService;
import java.util.concurrent.Executor;

/**
 * The transaction machinery of one broker, wired together: the marker writer (also the
 * WriteTxnMarkers use case), producer state and fencing (also DescribeProducers), the coordinator
 * (also the local transaction verifier) and its sweeper. The group coordinator is bound to it
 * with {@link #bindGroups} once both exist, then {@link #start} loads the slots and starts sweeping.
 */
public record TransactionServices(TxnMarkerWriter markers, ProducerStateService producers,
                                  TransactionCoordinatorService coordinator, TxnSweeper sweeper) implements AutoCloseable {

    /** The coordinator epoch kaas writes in markers: constant, as there is no quorum to version coordinators. */
    public static final int COORDINATOR_EPOCH = 0;

    /**
     * How often a coordinator looks whether its queued markers were applied, and a broker looks for
     * markers queued for it: a cross-broker commit waits for both, so about this long more than a
     * local one.
     */
    static final long MARKER_QUEUE_POLL_MS = 20;

    /** A cross-broker delivery still waiting this long fails; the transaction stays prepared and is retried. */
    static final long MARKER_DELIVERY_DEADLINE_MS = 20_000;

    /**
     * @param io runs slot writes, queue and fence-log I/O, and the sweeps
     */
    public static TransactionServices create(TransactionSettings settings, TransactionStateStore store, MarkerQueue queue,
                                             ProducerFenceLog fenceLog, TopicService topics, ClusterUseCase cluster,
                                             ProducerIdService producerIds, Clock clock, Scheduler scheduler, Executor io) {
        TxnMarkerWriter markers = new TxnMarkerWriter(topics, cluster, clock);
        ProducerStateService producers = new ProducerStateService(topics, cluster, fenceLog, clock, io);
        StagedOffsets offsets = new StagedOffsets();
        PeerMarkerDelivery peers = new PeerMarkerDelivery(markers, offsets, queue, cluster, clock, scheduler, io,
                MARKER_QUEUE_POLL_MS, MARKER_DELIVERY_DEADLINE_MS);
        TransactionCoordinatorService coordinator = new TransactionCoordinatorService(settings, store, topics, cluster,
                producerIds, markers, peers, offsets, producers, clock, io, COORDINATOR_EPOCH);
        TxnSweeper sweeper = new TxnSweeper(coordinator, producers, markers, offsets, queue, fenceLog, cluster, settings,
                clock, scheduler, io);
        return new TransactionServices(markers, producers, coordinator, sweeper);
    }

    /** Completed transactions commit or drop the offsets they staged in these groups. */
    public void bindGroups(GroupCoordinatorService groups) {
        coordinator.bindOffsetHook(groups::completeTransaction);
    }

    /** Loads the slots this broker coordinates (blocking), then starts the sweeps. */
    public void start() {
        coordinator.load();
        sweeper.start();
    }

    @Override
    public void close() {
        sweeper.close();
    }
}
