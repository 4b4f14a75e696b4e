package io.kaas.domain.txn;

import io.kaas.domain.group.CoordinatorRouting;

/**
 * Transactional ids are sharded over {@value #COUNT} slots (Apache's default of 50
 * {@code __transaction_state} partitions) by the same FNV-1a hash that routes coordinators; each
 * slot's state is one file, written by its coordinator only. A slot, not an id, is what is routed
 * to a coordinator (by its {@link #slotName}), as Apache routes a partition of
 * {@code __transaction_state} to its leader: so every id of a slot has the same coordinator.
 */
public final class TxnSlots {
    public static final int COUNT = 50;

    private TxnSlots() {
    }

    /** The slot of a transactional id: FNV-1a 32 of its UTF-8, unsigned, modulo {@value #COUNT}. */
    public static int slotFor(String transactionalId) {
        return Integer.remainderUnsigned(CoordinatorRouting.fnv1a32(transactionalId), COUNT);
    }

    /** The key a slot is routed by: {@code __transaction_state-N}, the partition it stands for. */
    public static String slotName(int slot) {
        return "__transaction_state-" + slot;
    }
}
