package io.kaas.application.txn;

import io.kaas.application.port.out.Clock;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnCommand;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees prepared transactions through: markers and offset hooks (the {@link TxnMarkerDispatcher}),
 * then the Complete* transition. At most one completion runs per transactional id; EndTxn, its
 * retries, a rejoin's abort, the reaper and the reconcile all join the one running.
 */
final class TxnCompletions {
    private static final Logger LOG = LoggerFactory.getLogger(TxnCompletions.class);

    private final TxnMarkerDispatcher dispatcher;
    private final Clock clock;
    private final Map<String, Completion> running = new ConcurrentHashMap<>();

    TxnCompletions(TxnMarkerDispatcher dispatcher, Clock clock) {
        this.dispatcher = dispatcher;
        this.clock = clock;
    }

    /**
     * Completes the id's prepared transaction, or joins the completion already running. Completes
     * with NONE once every marker and offset hook is durable - the outcome is then settled: should
     * the Complete* write not land, the transaction is still prepared on disk and the reconcile
     * finishes it again, idempotently - or with COORDINATOR_NOT_AVAILABLE when a marker or hook
     * failed (the transaction stays prepared). Later commands for the id wait for the Complete* write.
     */
    CompletableFuture<KafkaError> complete(TxnSlot slot, String transactionalId) {
        Completion created = new Completion(new CompletableFuture<>());
        Completion current = running.putIfAbsent(transactionalId, created);
        if (current != null) {
            return current.answer;
        }
        Optional<Transaction> prepared = slot.get(transactionalId).filter(t -> t.state().isPrepared());
        if (prepared.isEmpty()) {
            running.remove(transactionalId, created);
            created.answer.complete(KafkaError.NONE); // completed by a completion that just finished
            return created.answer;
        }
        Transaction txn = prepared.get();
        CompletableFuture<Void> placed;
        try {
            placed = dispatcher.dispatch(txn);
        } catch (RuntimeException e) {
            placed = CompletableFuture.failedFuture(e);
        }
        placed.thenCompose(v -> {
            created.answer.complete(KafkaError.NONE);
            return slot.whenIdle(() -> slot.run(transactionalId, new TxnCommand.CompleteEnd(), clock.nowMs(), null));
        }).thenCompose(run -> {
            if (run.status() != TxnSlot.Status.RAN || run.response() != KafkaError.NONE) {
                throw new IllegalStateException("cannot complete " + transactionalId + ": " + run.status());
            }
            return run.durable();
        }).whenComplete((v, failure) -> {
            running.remove(transactionalId, created);
            if (failure != null) {
                LOG.warn("transactional id {}: {} of producer {} epoch {} not completed; retried by the client or the "
                        + "next sweep: {}", transactionalId, txn.state(), txn.producerId(), txn.producerEpoch(),
                        failure.toString());
                created.answer.complete(KafkaError.COORDINATOR_NOT_AVAILABLE); // no-op if the markers were placed
            } else {
                LOG.debug("transactional id {}: {} completed ({} partitions, {} groups)", transactionalId, txn.state(),
                        txn.partitions().size(), txn.groups().size());
            }
        });
        return created.answer;
    }

    /** A completion in progress; {@code answer} completes as soon as the outcome is settled. */
    private record Completion(CompletableFuture<KafkaError> answer) {
    }
}
