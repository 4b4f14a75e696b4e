package io.kaas.application.port.out;

import io.kaas.domain.txn.Transaction;
import java.util.List;

/**
 * Where transaction coordinators keep their state: one file per slot,
 * {@code __cluster/txn_state/slot-N.json} (50 slots, kaas's replacement for the
 * {@code __transaction_state} topic), in memory in memory mode. A slot has one writer, its
 * coordinator. Every method may block on I/O: call it from an I/O thread, never a network one.
 */
public interface TransactionStateStore {

    /** The transactions of a slot; empty when it has none. */
    List<Transaction> load(int slot);

    /**
     * Replaces the slot's content; durable when it returns.
     *
     * @throws java.io.UncheckedIOException if it could not be made durable
     */
    void save(int slot, List<Transaction> transactions);
}
