package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.producer.ProducerStateService;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.EndResult;
import io.kaas.domain.txn.InitResult;
import io.kaas.domain.txn.ProducerIdAndEpoch;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnCommand;
import io.kaas.domain.txn.TxnSlots;
import io.kaas.domain.txn.TxnState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator: the transactional ids of the slots this broker coordinates, each
 * slot a {@link TxnSlot} over its {@code txn_state/slot-N.json}, with Apache 3.7's semantics (the
 * state machine is {@link Transaction}). Other brokers' ids are answered NOT_COORDINATOR.
 *
 * <p>EndTxn is two-phase, as in Apache: the outcome is made durable (Prepare*, keeping the
 * partitions and groups as the markers owed), the {@link TxnMarkerDispatcher} places every marker
 * and runs the offset hooks, then the transaction completes (Complete*). EndTxn is answered once
 * the markers and offsets are durable, so a committed transaction is readable once
 * commitTransaction() returns; a dispatch that fails answers COORDINATOR_NOT_AVAILABLE and leaves the
 * transaction prepared, for the client's retry or the sweeper's reconcile to finish. At most one
 * completion runs per id; later callers wait for it. A command for an id whose previous transition
 * is still being written waits for that write.
 *
 * <p>A traced request (its span {@link TraceSpan#current() current} when it arrives) gets an {@code fsync}
 * child for each slot-file write it waits for and, for EndTxn and an InitProducerId that aborts, a
 * {@code markers} child from the dispatch of the markers until they and the offsets are durable.
 *
 * <p>Also the local {@link TransactionVerifier}: the produce path and TxnOffsetCommit ask it whether
 * a partition or group is in a producer's transaction.
 */
public final class TransactionCoordinatorService implements TransactionCoordinator, TransactionVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinatorService.class);

    private final TransactionSettings settings;
    private final TopicService topics;
    private final ClusterUseCase cluster;
    private final Executor io;
    private final ProducerIdService producerIds;
    private final ProducerStateService producers;
    private final StagedOffsets offsets;
    private final Clock clock;
    private final List<TxnSlot> slots = new ArrayList<>(TxnSlots.COUNT);
    private final TxnCompletions completions;

    /**
     * @param io               runs the slot writes and producer-id allocation
     * @param coordinatorEpoch the coordinator epoch written in markers
     */
    TransactionCoordinatorService(TransactionSettings settings, TransactionStateStore store, TopicService topics,
                                  ClusterUseCase cluster, ProducerIdService producerIds, TxnMarkerWriter markers,
                                  PeerMarkerDelivery peers, StagedOffsets offsets, ProducerStateService producers,
                                  Clock clock, Executor io, int coordinatorEpoch) {
        this.settings = settings;
        this.topics = topics;
        this.cluster = cluster;
        this.io = io;
        this.producerIds = producerIds;
        this.producers = producers;
        this.clock = clock;
        this.offsets = offsets;
        this.completions = new TxnCompletions(new TxnMarkerDispatcher(markers, peers, offsets, cluster, coordinatorEpoch),
                clock);
        for (int i = 0; i < TxnSlots.COUNT; i++) {
            slots.add(new TxnSlot(i, store, io));
        }
    }

    /** Ends the offsets a producer's transaction staged in a group: commits or drops them, durably. */
    @FunctionalInterface
    public interface OffsetHook {
        CompletableFuture<Void> complete(String groupId, long producerId, boolean commit);
    }

    /**
     * Where completed transactions' staged offsets go: the group coordinator. The two coordinators
     * call each other (TxnOffsetCommit is verified here, EndTxn completes offsets there), so the
     * composition root binds this after both exist, before {@link #load}.
     */
    public void bindOffsetHook(OffsetHook hook) {
        offsets.bind(hook);
    }

    /** Loads the slots this broker coordinates. Blocking: call at startup, off the network threads. */
    public void load() {
        for (TxnSlot slot : slots) {
            if (ownsSlot(slot.slot())) {
                slot.load();
            }
        }
        LOG.info("transaction coordinator loaded {} slot(s)", slots.stream().filter(TxnSlot::isLoaded).count());
    }

    /**
     * In a cluster, after each assignment change: loads the slots now routed here and forgets those
     * routed elsewhere (their new coordinator loads them from their files). Blocking: a control thread.
     */
    public void followOwnership() {
        for (TxnSlot slot : slots) {
            boolean owned = ownsSlot(slot.slot());
            if (owned && !slot.isLoaded()) {
                slot.load();
                LOG.info("transaction slot {} is coordinated here now", slot.slot());
            } else if (!owned && slot.isLoaded()) {
                slot.unload();
                LOG.info("transaction slot {} is coordinated by another broker now", slot.slot());
            }
        }
    }

    // ----------------------------------------------------------------------------------- producer APIs

    @Override
    public CompletionStage<InitProducerIdResult> initProducerId(String transactionalId, int timeoutMs,
                                                                ExpectedProducer expected) {
        KafkaError refused = refusal(transactionalId);
        if (refused == KafkaError.NONE && !Transaction.isValidTimeout(timeoutMs, settings.maxTimeoutMs())) {
            refused = KafkaError.INVALID_TRANSACTION_TIMEOUT;
        }
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(InitProducerIdResult.failed(refused));
        }
        TxnSlot slot = slotOf(transactionalId);
        TraceSpan span = TraceSpan.current();
        ProducerIdAndEpoch claimed = expected == null ? null
                : new ProducerIdAndEpoch(expected.producerId(), expected.producerEpoch());
        AtomicReference<Optional<Transaction>> before = new AtomicReference<>(Optional.empty());
        // On the I/O executor: a new id or a rotation takes a producer id, which may persist a new block.
        return CompletableFuture.supplyAsync(() -> slot.whenIdle(() -> {
            long now = clock.nowMs();
            before.set(slot.get(transactionalId)); // the state the bump is measured against, before the write lands
            TxnSlot.Run<InitResult> first = slot.run(transactionalId, new TxnCommand.InitProducerId(timeoutMs, claimed, -1L),
                    now, () -> Transaction.create(transactionalId, producerIds.allocate(), timeoutMs, now));
            if (first.status() == TxnSlot.Status.RAN && first.response().needsFreshProducerId()) {
                return slot.run(transactionalId, new TxnCommand.InitProducerId(timeoutMs, claimed,
                        producerIds.allocate()), now, null);
            }
            return first;
        }), io).thenCompose(running -> running)
                .thenCompose(run -> initialized(slot, transactionalId, before.get(), run, span));
    }

    /** What an InitProducerId that ran answers, once its change is durable. */
    private CompletableFuture<InitProducerIdResult> initialized(TxnSlot slot, String transactionalId,
                                                                Optional<Transaction> before, TxnSlot.Run<InitResult> run,
                                                                TraceSpan span) {
        if (run.status() != TxnSlot.Status.RAN) {
            return CompletableFuture.completedFuture(InitProducerIdResult.failed(KafkaError.CONCURRENT_TRANSACTIONS));
        }
        InitResult result = run.response();
        Transaction next = run.result().next();
        return whenDurable(slot, run, span, InitProducerIdResult::failed, () -> {
            if (result.abortStarted()) {
                LOG.info("transactional id {} rejoined during a transaction: aborting it under epoch {} first",
                        transactionalId, next.producerEpoch());
                fenceBump(before, next);
                markers(span, next).endWhenDone(completions.complete(slot, transactionalId));
                return CompletableFuture.completedFuture(InitProducerIdResult.failed(result.error()));
            }
            if (result.error() != KafkaError.NONE) {
                return CompletableFuture.completedFuture(InitProducerIdResult.failed(result.error()));
            }
            InitProducerIdResult ok = new InitProducerIdResult(KafkaError.NONE, result.producerId(), result.producerEpoch());
            LOG.info("transactional id {} initialized with producer id {} epoch {}", transactionalId,
                    result.producerId(), result.producerEpoch());
            return fenceBump(before, next).handle((v, e) -> ok);
        });
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> addPartitions(String transactionalId, long producerId,
                                                                          short producerEpoch,
                                                                          Set<TopicPartition> partitions) {
        Map<TopicPartition, KafkaError> unknown = new LinkedHashMap<>();
        partitions.stream().filter(tp -> !exists(tp)).forEach(tp -> unknown.put(tp, KafkaError.UNKNOWN_TOPIC_OR_PARTITION));
        if (!unknown.isEmpty()) {
            // Any partition that does not exist fails the request; the others are "not attempted".
            partitions.forEach(tp -> unknown.putIfAbsent(tp, KafkaError.OPERATION_NOT_ATTEMPTED));
            return CompletableFuture.completedFuture(unknown);
        }
        return change(transactionalId, new TxnCommand.AddPartitions(producerId, producerEpoch, partitions), e -> e)
                .thenApply(error -> all(partitions, error));
    }

    @Override
    public CompletionStage<KafkaError> addOffsets(String transactionalId, long producerId, short producerEpoch,
                                                  String groupId) {
        return change(transactionalId, new TxnCommand.AddGroup(producerId, producerEpoch, groupId), e -> e);
    }

    @Override
    public CompletionStage<KafkaError> endTxn(String transactionalId, long producerId, short producerEpoch,
                                              boolean commit) {
        KafkaError refused = refusal(transactionalId);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(refused);
        }
        TxnSlot slot = slotOf(transactionalId);
        TraceSpan span = TraceSpan.current();
        return slot.whenIdle(() -> slot.run(transactionalId,
                new TxnCommand.EndTxn(producerId, producerEpoch, commit, true), clock.nowMs(), null)).thenCompose(run -> {
                    if (run.status() != TxnSlot.Status.RAN) {
                        return CompletableFuture.completedFuture(statusError(run.status()));
                    }
                    EndResult result = run.response();
                    return whenDurable(slot, run, span, e -> e, () -> result.awaitMarkers()
                            ? markers(span, run.result().next()).endWhenDone(completions.complete(slot, transactionalId))
                            : CompletableFuture.completedFuture(result.error()));
                });
    }

    /** The span of a prepared transaction's completion: its markers placed and its offsets moved, durably. */
    private static TraceSpan markers(TraceSpan request, Transaction prepared) {
        return request.child("markers").attribute("kaas.partitions", prepared.partitions().size())
                .attribute("kaas.groups", prepared.groups().size())
                .attribute("kaas.outcome", prepared.state() == TxnState.PREPARE_COMMIT ? "commit" : "abort");
    }

    // ----------------------------------------------------------------------------------- verification

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                             short producerEpoch,
                                                                             Set<TopicPartition> partitions) {
        KafkaError refused = refusal(transactionalId);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(all(partitions, refused));
        }
        Optional<Transaction> txn = slotOf(transactionalId).get(transactionalId);
        return CompletableFuture.completedFuture(txn.isEmpty() ? all(partitions, KafkaError.INVALID_PRODUCER_ID_MAPPING)
                : txn.get().verify(producerId, producerEpoch, partitions));
    }

    @Override
    public CompletionStage<KafkaError> verifyGroup(String transactionalId, long producerId, short producerEpoch,
                                                   String groupId) {
        KafkaError refused = refusal(transactionalId);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(refused);
        }
        Optional<Transaction> txn = slotOf(transactionalId).get(transactionalId);
        return CompletableFuture.completedFuture(txn.isEmpty() ? KafkaError.INVALID_PRODUCER_ID_MAPPING
                : txn.get().verifyGroup(producerId, producerEpoch, groupId));
    }

    // ----------------------------------------------------------------------------------- admin views

    @Override
    public CompletionStage<List<TransactionDescription>> describe(List<String> transactionalIds) {
        List<TransactionDescription> out = new ArrayList<>();
        for (String id : transactionalIds) {
            KafkaError refused = refusal(id);
            Optional<Transaction> txn = refused == KafkaError.NONE ? slotOf(id).get(id) : Optional.empty();
            if (refused != KafkaError.NONE || txn.isEmpty()) {
                out.add(TransactionDescription.failed(id, refused != KafkaError.NONE ? refused
                        : KafkaError.TRANSACTIONAL_ID_NOT_FOUND));
            } else {
                Transaction t = txn.get();
                out.add(new TransactionDescription(id, KafkaError.NONE, t.state().displayName(), t.producerId(),
                        t.producerEpoch(), t.timeoutMs(), t.startMs(), t.partitions()));
            }
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletionStage<ListResult> list(Set<String> states, Set<Long> producerIdFilter) {
        List<String> unknown = states.stream().filter(s -> TxnState.byDisplayName(s).isEmpty()).sorted().toList();
        List<ListedTransaction> listed = new ArrayList<>();
        for (TxnSlot slot : slots) {
            if (!slot.isLoaded() || !ownsSlot(slot.slot())) {
                continue;
            }
            for (Transaction t : slot.all()) {
                if ((states.isEmpty() || states.contains(t.state().displayName()))
                        && (producerIdFilter.isEmpty() || producerIdFilter.contains(t.producerId()))) {
                    listed.add(new ListedTransaction(t.transactionalId(), t.producerId(), t.state().displayName()));
                }
            }
        }
        return CompletableFuture.completedFuture(new ListResult(KafkaError.NONE, unknown, listed));
    }

    /**
     * The transactions in progress among those this broker coordinates (Ongoing, or prepared and
     * waiting for their markers) and when the oldest began. Takes each slot's lock briefly, never a
     * partition's: for the metrics.
     */
    public ActiveTransactions active() {
        long[] found = {0, Long.MAX_VALUE};
        forEachOwned((slot, txn) -> {
            if (txn.state() == TxnState.ONGOING || txn.state().isPrepared()) {
                found[0]++;
                found[1] = Math.min(found[1], txn.startMs());
            }
        });
        return new ActiveTransactions(found[0], found[0] == 0 ? -1L : found[1]);
    }

    /** @param oldestStartMs when the oldest of them began (epoch milliseconds); -1 when there are none */
    public record ActiveTransactions(long count, long oldestStartMs) {
    }

    // ----------------------------------------------------------------------------------- background work

    /** Aborts every Ongoing transaction past its timeout, under a bumped epoch (the reaper). */
    void abortTimedOut() {
        forEachOwned((slot, txn) -> {
            if (txn.state() != TxnState.ONGOING) {
                return;
            }
            TxnSlot.Run<Boolean> run = slot.run(txn.transactionalId(), new TxnCommand.AbortIfTimedOut(), clock.nowMs(), null);
            if (run.status() == TxnSlot.Status.RAN && run.response()) {
                Transaction next = run.result().next();
                LOG.info("transactional id {} (producer {}) timed out after {} ms: aborting under epoch {}",
                        txn.transactionalId(), txn.producerId(), txn.timeoutMs(), next.producerEpoch());
                run.durable().thenRun(() -> {
                    fenceBump(Optional.of(txn), next);
                    completions.complete(slot, txn.transactionalId());
                }).exceptionally(e -> {
                    LOG.warn("timeout abort of {} not durable; the next sweep retries: {}", txn.transactionalId(), e.toString());
                    return null;
                });
            }
        });
    }

    /** Completes every prepared transaction no completion is working on (a producer that died mid-commit). */
    void reconcile() {
        forEachOwned((slot, txn) -> {
            if (txn.state().isPrepared()) {
                completions.complete(slot, txn.transactionalId());
            }
        });
    }

    /** Forgets transactional ids idle for {@code transactional.id.expiration.ms}. */
    void expireIdle() {
        forEachOwned((slot, txn) -> {
            TxnSlot.Run<Boolean> run = slot.run(txn.transactionalId(), new TxnCommand.ExpireIfIdle(settings.idExpirationMs()),
                    clock.nowMs(), null);
            if (run.status() == TxnSlot.Status.RAN && run.response()) {
                LOG.info("transactional id {} expired after {} ms unused", txn.transactionalId(), settings.idExpirationMs());
            }
        });
    }

    // ----------------------------------------------------------------------------------- internals

    /** Runs a command that changes an id's transaction and answers with its error once durable. */
    private CompletableFuture<KafkaError> change(String transactionalId, TxnCommand<KafkaError> command,
                                                 Function<KafkaError, KafkaError> failed) {
        KafkaError refused = refusal(transactionalId);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(refused);
        }
        TxnSlot slot = slotOf(transactionalId);
        TraceSpan span = TraceSpan.current();
        return slot.whenIdle(() -> slot.run(transactionalId, command, clock.nowMs(), null))
                .thenCompose(run -> {
                    if (run.status() != TxnSlot.Status.RAN) {
                        return CompletableFuture.completedFuture(statusError(run.status()));
                    }
                    KafkaError error = run.response();
                    return whenDurable(slot, run, span, failed, () -> CompletableFuture.completedFuture(error));
                });
    }

    /**
     * Continues once the run's change is durable; a slot file that could not be written is answered
     * NOT_COORDINATOR, Apache's answer to a transaction log it cannot append to. The wait is the request's
     * {@code fsync} child.
     */
    private static <T> CompletableFuture<T> whenDurable(TxnSlot slot, TxnSlot.Run<?> run, TraceSpan span,
                                                        Function<KafkaError, T> failed, Supplier<CompletableFuture<T>> then) {
        TraceSpan fsync = span.child("fsync").attribute("kaas.txn_slot", slot.slot());
        return fsync.endWhenDone(run.durable()).handle((v, failure) -> failure).thenCompose(failure -> {
            if (failure != null) {
                LOG.warn("transaction state not durable: {}", failure.toString());
                return CompletableFuture.completedFuture(failed.apply(KafkaError.NOT_COORDINATOR));
            }
            return then.get();
        });
    }

    /**
     * After a transition that raised the producer's epoch (or replaced its producer id), older epochs
     * are fenced on every local partition and in the fence log; completes when the log entry is durable.
     */
    private CompletableFuture<Void> fenceBump(Optional<Transaction> before, Transaction after) {
        if (before.isEmpty() || before.get().producerEpoch() < 0) {
            return CompletableFuture.completedFuture(null); // a new id: nobody to fence
        }
        Transaction was = before.get();
        CompletableFuture<Void> fenced;
        if (was.producerId() != after.producerId()) {
            fenced = producers.fence(was.producerId(), Short.MAX_VALUE); // the old producer id is retired
        } else if (after.producerEpoch() > was.producerEpoch()) {
            fenced = producers.fence(after.producerId(), after.producerEpoch());
        } else {
            return CompletableFuture.completedFuture(null);
        }
        return fenced.exceptionally(e -> {
            LOG.warn("producer {} fenced locally, but the fence log could not be written: {}", after.producerId(),
                    e.toString());
            return null;
        });
    }

    private void forEachOwned(BiConsumer<TxnSlot, Transaction> action) {
        for (TxnSlot slot : slots) {
            if (!slot.isLoaded() || !ownsSlot(slot.slot())) {
                continue;
            }
            for (Transaction txn : slot.all()) {
                try {
                    action.accept(slot, txn);
                } catch (RuntimeException e) {
                    LOG.warn("sweep of transactional id {} failed: {}", txn.transactionalId(), e.toString());
                }
            }
        }
    }

    /** Checks before any id is looked up: its form, ownership and whether its slot is loaded. */
    private KafkaError refusal(String transactionalId) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return KafkaError.INVALID_REQUEST;
        }
        int slot = TxnSlots.slotFor(transactionalId);
        if (!ownsSlot(slot)) {
            return KafkaError.NOT_COORDINATOR;
        }
        return slots.get(slot).isLoaded() ? KafkaError.NONE : KafkaError.COORDINATOR_LOAD_IN_PROGRESS;
    }

    private boolean ownsSlot(int slot) {
        Optional<ClusterUseCase.Broker> coordinator = cluster.transactionSlotCoordinator(slot);
        return coordinator.isPresent() && coordinator.get().id() == cluster.self().id();
    }

    private TxnSlot slotOf(String transactionalId) {
        return slots.get(TxnSlots.slotFor(transactionalId));
    }

    private static KafkaError statusError(TxnSlot.Status status) {
        return status == TxnSlot.Status.ABSENT ? KafkaError.INVALID_PRODUCER_ID_MAPPING : KafkaError.CONCURRENT_TRANSACTIONS;
    }

    private boolean exists(TopicPartition tp) {
        return topics.byName(tp.topic()).map(t -> t.hasPartition(tp.partition())).orElse(false);
    }

    private static Map<TopicPartition, KafkaError> all(Set<TopicPartition> partitions, KafkaError error) {
        Map<TopicPartition, KafkaError> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, error));
        return out;
    }
}
