package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnMarker;
import io.kaas.domain.txn.TxnState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees a prepared transaction's outcome through, from its durable dispatch set: a marker for every
 * recorded partition - appended here for partitions this broker leads, delivered through the marker
 * queue to the others' leaders ({@link PeerMarkerDelivery}) - then the offset hook of every recorded
 * group. Idempotent: a retry re-places markers already placed (a second marker ends nothing) and
 * re-runs hooks already run (nothing left to move).
 */
final class TxnMarkerDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(TxnMarkerDispatcher.class);

    private final TxnMarkerWriter writer;
    private final PeerMarkerDelivery peers;
    private final ClusterUseCase cluster;
    private final int coordinatorEpoch;
    private volatile TransactionCoordinatorService.OffsetHook offsets = (group, pid, commit) -> CompletableFuture.completedFuture(null);

    /**
     * @param coordinatorEpoch written in every marker: kaas has no coordinator epoch apart from the
     *                         assignment, so it is constant for a standalone broker
     */
    TxnMarkerDispatcher(TxnMarkerWriter writer, PeerMarkerDelivery peers, ClusterUseCase cluster,
                        int coordinatorEpoch) {
        this.writer = writer;
        this.peers = peers;
        this.cluster = cluster;
        this.coordinatorEpoch = coordinatorEpoch;
    }

    void offsetHook(TransactionCoordinatorService.OffsetHook hook) {
        this.offsets = hook;
    }

    /** Places the prepared transaction's markers and runs its offset hooks; fails if any could not be. */
    CompletableFuture<Void> dispatch(Transaction prepared) {
        if (!prepared.state().isPrepared()) {
            throw new IllegalArgumentException(prepared.transactionalId() + " is not prepared: " + prepared.state());
        }
        boolean commit = prepared.state() == TxnState.PREPARE_COMMIT;
        TxnMarker marker = new TxnMarker(prepared.producerId(), prepared.producerEpoch(), coordinatorEpoch, commit);
        int self = cluster.self().id();
        List<CompletableFuture<Void>> local = new ArrayList<>();
        List<TopicPartition> elsewhere = new ArrayList<>();
        for (TopicPartition tp : prepared.partitions()) {
            if (cluster.leaderOf(tp.topic(), tp.partition()) == self) {
                local.add(writer.write(tp, marker).thenAccept(error -> check(prepared, tp, error)));
            } else {
                elsewhere.add(tp);
            }
        }
        if (!elsewhere.isEmpty()) {
            local.add(peers.deliver(marker, elsewhere));
        }
        return allOf(local)
                .thenCompose(v -> allOf(prepared.groups().stream()
                        .map(group -> offsets.complete(group, prepared.producerId(), commit)).toList()));
    }

    /**
     * A marker that could not be placed fails the dispatch, except where there is nothing left to
     * mark: the topic is gone (Apache skips partitions without a leader), or a newer epoch already
     * ended the producer's transaction there.
     */
    private static void check(Transaction txn, TopicPartition tp, KafkaError error) {
        switch (error) {
            case NONE -> {
            }
            case UNKNOWN_TOPIC_OR_PARTITION -> LOG.info("transactional id {}: no marker for {}, which no longer exists",
                    txn.transactionalId(), tp);
            case INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED -> LOG.warn("transactional id {}: marker for {} "
                    + "refused ({}): a newer epoch already wrote there", txn.transactionalId(), tp, error);
            default -> throw new IllegalStateException("marker for " + tp + " of " + txn.transactionalId() + ": " + error);
        }
    }

    private static CompletableFuture<Void> allOf(List<CompletableFuture<Void>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
    }
}
