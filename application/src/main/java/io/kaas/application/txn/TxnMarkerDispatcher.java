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
 * recorded partition and the staged offsets of every recorded group - applied here for what this
 * broker leads or coordinates, delivered through the marker queue to the others' owners
 * ({@link PeerMarkerDelivery}). Idempotent: a retry re-places markers already placed (a second marker ends nothing) and
 * re-runs hooks already run (nothing left to move).
 */
final class TxnMarkerDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(TxnMarkerDispatcher.class);

    private final TxnMarkerWriter writer;
    private final PeerMarkerDelivery peers;
    private final StagedOffsets offsets;
    private final ClusterUseCase cluster;
    private final int coordinatorEpoch;

    /**
     * @param coordinatorEpoch written in every marker: kaas has no coordinator epoch apart from the
     *                         assignment, so it is constant for a standalone broker
     */
    TxnMarkerDispatcher(TxnMarkerWriter writer, PeerMarkerDelivery peers, StagedOffsets offsets, ClusterUseCase cluster,
                        int coordinatorEpoch) {
        this.writer = writer;
        this.peers = peers;
        this.offsets = offsets;
        this.cluster = cluster;
        this.coordinatorEpoch = coordinatorEpoch;
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
        List<String> groupsHere = new ArrayList<>();
        List<TxnOutcomeTarget> elsewhere = new ArrayList<>();
        for (TopicPartition tp : prepared.partitions()) {
            if (cluster.leaderOf(tp.topic(), tp.partition()) == self) {
                local.add(writer.write(tp, marker).thenAccept(error -> check(prepared, tp, error)));
            } else {
                elsewhere.add(TxnOutcomeTarget.of(tp));
            }
        }
        for (String group : prepared.groups()) {
            if (TxnOutcomeTarget.of(group).ownerIn(cluster) == self) {
                groupsHere.add(group);
            } else {
                elsewhere.add(TxnOutcomeTarget.of(group));
            }
        }
        if (!elsewhere.isEmpty()) {
            local.add(peers.deliver(marker, elsewhere));
        }
        return allOf(local).thenCompose(v -> allOf(groupsHere.stream()
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
