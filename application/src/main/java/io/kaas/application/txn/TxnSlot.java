package io.kaas.application.txn;

import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.application.task.CoalescingWriter;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnCommand;
import io.kaas.domain.txn.TxnResult;
import io.kaas.domain.txn.TxnState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The transactions of one of the 50 slots, as their coordinator holds them: what the slot file
 * says (durable, what every check reads) and the transitions on their way to it. Each transition
 * rewrites the whole file (temp, fsync, rename, directory fsync) through a {@link CoalescingWriter},
 * so transitions of different ids share writes. While an id's transition is being written, a further
 * command for it is not run: the caller gets the write to wait for (Apache answers
 * CONCURRENT_TRANSACTIONS while a transition is pending; kaas lets the command wait its turn).
 *
 * <p>Every access takes this object's lock.
 */
final class TxnSlot implements CoalescingWriter.Target<TxnSlot.Transition> {
    private final int slot;
    private final TransactionStateStore store;
    private final CoalescingWriter<Transition> writer;
    private final Map<String, Transaction> durable = new HashMap<>();
    /** Ids with a transition queued or being written, and that write. */
    private final Map<String, CompletableFuture<Void>> pending = new HashMap<>();
    private boolean loaded;

    TxnSlot(int slot, TransactionStateStore store, Executor io) {
        this.slot = slot;
        this.store = store;
        this.writer = new CoalescingWriter<>(io, this, this);
    }

    /** Reads the slot file. Blocking. */
    void load() {
        List<Transaction> stored = store.load(slot);
        synchronized (this) {
            durable.clear();
            stored.forEach(t -> durable.put(t.transactionalId(), t));
            loaded = true;
        }
    }

    /** Forgets the slot's state: another broker coordinates it now and writes its file. */
    synchronized void unload() {
        durable.clear();
        loaded = false;
    }

    synchronized boolean isLoaded() {
        return loaded;
    }

    int slot() {
        return slot;
    }

    /** The durable state of an id. */
    synchronized Optional<Transaction> get(String transactionalId) {
        return Optional.ofNullable(durable.get(transactionalId));
    }

    /** Every durable transaction, by id. */
    synchronized List<Transaction> all() {
        List<Transaction> all = new ArrayList<>(durable.values());
        all.sort(Comparator.comparing(Transaction::transactionalId));
        return all;
    }

    /** How a command went: ran (with its response, and when its change is durable), or could not run. */
    enum Status { RAN, BUSY, ABSENT }

    /**
     * @param durable when the change is durable (RAN); when the id's earlier transition is (BUSY)
     */
    record Run<R>(Status status, TxnResult<R> result, CompletableFuture<Void> durable) {
        R response() {
            return result.response();
        }
    }

    /**
     * Runs a command on an id's durable state: BUSY while an earlier transition of the id is being
     * written; ABSENT when the id is unknown and {@code create} is null. A changed transaction is
     * written; {@link Run#durable()} completes when it is (at once when nothing changed).
     *
     * @param create makes the entry of an unknown id (InitProducerId), or null
     */
    synchronized <R> Run<R> run(String transactionalId, TxnCommand<R> command, long nowMs, Supplier<Transaction> create) {
        CompletableFuture<Void> writing = pending.get(transactionalId);
        if (writing != null) {
            return new Run<>(Status.BUSY, null, writing);
        }
        Transaction current = durable.get(transactionalId);
        if (current == null) {
            if (create == null) {
                return new Run<>(Status.ABSENT, null, null);
            }
            current = create.get();
        }
        TxnResult<R> result = current.handle(command, nowMs);
        if (!result.changed()) {
            return new Run<>(Status.RAN, result, CompletableFuture.completedFuture(null));
        }
        CompletableFuture<Void> durable = writer.submit(new Transition(transactionalId, result.next()));
        if (!durable.isDone()) {
            pending.put(transactionalId, durable);
        }
        return new Run<>(Status.RAN, result, durable);
    }

    /**
     * Runs {@code attempt} (a {@link #run} on this slot) once the id has no transition being written:
     * an earlier transition of the same id is waited for, whether it was written or not, and the
     * command then runs on its outcome.
     */
    <R> CompletableFuture<Run<R>> whenIdle(Supplier<Run<R>> attempt) {
        Run<R> run = attempt.get();
        if (run.status() != Status.BUSY) {
            return CompletableFuture.completedFuture(run);
        }
        return run.durable().handle((v, e) -> null).thenCompose(v -> whenIdle(attempt));
    }

    @Override
    public Runnable prepare(List<Transition> changes) {
        Map<String, Transaction> next = new HashMap<>(durable);
        for (Transition t : changes) {
            if (t.next.state() == TxnState.DEAD) {
                next.remove(t.transactionalId);
            } else {
                next.put(t.transactionalId, t.next);
            }
        }
        List<Transaction> content = new ArrayList<>(next.values());
        content.sort(Comparator.comparing(Transaction::transactionalId));
        return () -> store.save(slot, content);
    }

    @Override
    public void written(List<Transition> changes, RuntimeException failure) {
        for (Transition t : changes) {
            pending.remove(t.transactionalId);
            if (failure == null) {
                if (t.next.state() == TxnState.DEAD) {
                    durable.remove(t.transactionalId);
                } else {
                    durable.put(t.transactionalId, t.next);
                }
            }
        }
    }

    record Transition(String transactionalId, Transaction next) {
    }
}
