package io.kaas.application.memory;

import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.domain.txn.Transaction;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Transaction slots in memory ({@code KAAS_STORAGE=memory}): lost when the broker stops. */
public final class InMemoryTransactionStateStore implements TransactionStateStore {
    private final Map<Integer, List<Transaction>> slots = new ConcurrentHashMap<>();

    @Override
    public List<Transaction> load(int slot) {
        return slots.getOrDefault(slot, List.of());
    }

    @Override
    public void save(int slot, List<Transaction> transactions) {
        slots.put(slot, List.copyOf(transactions));
    }
}
