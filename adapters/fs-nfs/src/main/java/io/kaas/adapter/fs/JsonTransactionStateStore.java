package io.kaas.adapter.fs;

import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnState;
import java.util.List;

/**
 * Transaction slots as JSON files, {@code __cluster/txn_state/slot-N.json}: kaas's replacement for
 * the {@code __transaction_state} topic. A save replaces the whole file atomically and durably, so
 * the file is the slot's materialized state and a new coordinator just reads it (no replay).
 */
public final class JsonTransactionStateStore implements TransactionStateStore {
    private final DataLayout layout;
    private final JsonFiles files;

    public JsonTransactionStateStore(DataLayout layout, JsonFiles files) {
        this.layout = layout;
        this.files = files;
    }

    @Override
    public List<Transaction> load(int slot) {
        return files.read(layout.txnSlot(slot), SlotFile.class).map(SlotFile::toTransactions).orElse(List.of());
    }

    @Override
    public void save(int slot, List<Transaction> transactions) {
        files.write(layout.txnSlot(slot), new SlotFile(slot, transactions.stream().map(Entry::of).toList()));
    }

    /** The file's content. */
    record SlotFile(int slot, List<Entry> transactions) {
        List<Transaction> toTransactions() {
            return transactions == null ? List.of() : transactions.stream().map(Entry::toTransaction).toList();
        }
    }

    /**
     * One transactional id; {@code state} is the display name ({@code Ongoing}, {@code PrepareCommit}, …)
     * so {@code cat slot-N.json} reads like DescribeTransactions.
     */
    record Entry(String transactionalId, long producerId, long lastProducerId, short producerEpoch,
                 short lastProducerEpoch, int timeoutMs, String state, List<Partition> partitions, List<String> groups,
                 long startMs, long lastUpdateMs) {
        static Entry of(Transaction t) {
            return new Entry(t.transactionalId(), t.producerId(), t.lastProducerId(), t.producerEpoch(),
                    t.lastProducerEpoch(), t.timeoutMs(), t.state().displayName(),
                    t.partitions().stream().map(tp -> new Partition(tp.topic(), tp.partition())).toList(), t.groups(),
                    t.startMs(), t.lastUpdateMs());
        }

        Transaction toTransaction() {
            TxnState parsed = TxnState.byDisplayName(state)
                    .orElseThrow(() -> new IllegalStateException("unknown transaction state " + state + " of " + transactionalId));
            return new Transaction(transactionalId, producerId, lastProducerId, producerEpoch, lastProducerEpoch, timeoutMs,
                    parsed, partitions == null ? List.of() : partitions.stream().map(Partition::toTopicPartition).toList(),
                    groups == null ? List.of() : groups, startMs, lastUpdateMs);
        }
    }

    record Partition(String topic, int partition) {
        TopicPartition toTopicPartition() {
            return new TopicPartition(topic, partition);
        }
    }
}
