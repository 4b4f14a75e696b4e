package io.kaas.domain.compaction;

import io.kaas.domain.log.AbortedTxn;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The transactions a cleaning walks through, batch by batch in offset order (Apache's
 * {@code CleanedTransactionMetadata}): which batches belong to an aborted transaction (they go), and
 * which markers may go because no batch of their transaction is left. An ABORT marker stays as long
 * as the walk still meets records of its transaction; a COMMIT marker as long as it meets any.
 */
public final class CleanedTransactions {
    /** The aborted transactions not yet reached, by first offset. */
    private final PriorityQueue<AbortedTxn> aborted = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
    /** Producer → whether a batch of its aborted transaction was met since it started. */
    private final Map<Long, Boolean> ongoingAborted = new HashMap<>();
    private final Set<Long> ongoingCommitted = new HashSet<>();

    public CleanedTransactions(Collection<AbortedTxn> abortedTransactions) {
        aborted.addAll(abortedTransactions);
    }

    /** A data batch met: true when it belongs to an aborted transaction and may be discarded. */
    public boolean onBatch(StoredBatch batch) {
        reachAbortedUpTo(batch.lastOffset());
        if (!batch.transactional()) {
            return false;
        }
        if (ongoingAborted.containsKey(batch.producerId())) {
            ongoingAborted.put(batch.producerId(), true);
            return true;
        }
        ongoingCommitted.add(batch.producerId());
        return false;
    }

    /** A control batch met: true when no batch of the transaction it ends was met, so it may be discarded. */
    public boolean onControlBatch(StoredBatch batch) {
        reachAbortedUpTo(batch.lastOffset());
        return switch (batch.marker()) {
            case ABORT -> {
                Boolean sawRecords = ongoingAborted.remove(batch.producerId());
                yield sawRecords == null || !sawRecords;
            }
            case COMMIT -> !ongoingCommitted.remove(batch.producerId());
            case EMPTY -> true; // emptied by an earlier cleaning
            default -> false;
        };
    }

    private void reachAbortedUpTo(long offset) {
        while (!aborted.isEmpty() && aborted.peek().firstOffset() <= offset) {
            ongoingAborted.putIfAbsent(aborted.poll().producerId(), false);
        }
    }
}
