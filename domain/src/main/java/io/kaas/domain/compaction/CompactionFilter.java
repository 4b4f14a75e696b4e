package io.kaas.domain.compaction;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Decides, batch by batch and record by record in offset order, what a cleaning keeps (Apache
 * 3.7's cleaner filter): the latest record of each key in the {@link KeyOffsetMap} and every record
 * past what the map covers; tombstones only until their batch's delete horizon has passed (per
 * record: the others of the batch stay); nothing of an aborted transaction; a transaction marker
 * until no batch of its transaction is left and its own delete horizon has passed; and, emptied but
 * not removed, the batch holding an active producer's last sequence or last epoch, so its
 * idempotence and fencing state survive.
 */
public final class CompactionFilter {

    /** What happens to a batch whose records were filtered; kafka-clients' {@code BatchRetention}. */
    public enum BatchRetention {
        /** Removed whole, kept records or not. */
        DELETE,
        /** Kept with its kept records; removed when none is kept. */
        DELETE_EMPTY,
        /** Kept, as an empty header when no record is kept. */
        RETAIN_EMPTY
    }

    /**
     * @param containsMarkerForEmptyTxn a marker whose transaction has no record left: the rewritten
     *                                  batch gets a delete horizon, after which a later cleaning drops it
     */
    public record BatchDecision(BatchRetention retention, boolean containsMarkerForEmptyTxn) {
    }

    /** An active producer's last data offset (if it has one) and its epoch. */
    public record LastRecord(OptionalLong lastDataOffset, short producerEpoch) {
    }

    private final KeyOffsetMap map;
    private final CleanedTransactions transactions;
    private final Map<Long, LastRecord> activeProducers;
    private final long nowMs;
    private boolean discardBatchRecords;

    public CompactionFilter(KeyOffsetMap map, CleanedTransactions transactions, Map<Long, LastRecord> activeProducers,
                            long nowMs) {
        this.map = map;
        this.transactions = transactions;
        this.activeProducers = Map.copyOf(activeProducers);
        this.nowMs = nowMs;
    }

    /** A batch begins; called for every batch in offset order, before its records. */
    public BatchDecision batch(StoredBatch batch) {
        boolean canDiscard = batch.isControl() ? transactions.onControlBatch(batch) : transactions.onBatch(batch);
        // markers piggy-back on the tombstone horizon: dropped only once it has passed
        discardBatchRecords = batch.isControl() ? canDiscard && horizonPassed(batch) : canDiscard;
        BatchRetention retention;
        if (batch.hasProducerId() && isLastOfActiveProducer(batch)) {
            retention = BatchRetention.RETAIN_EMPTY;
        } else if (discardBatchRecords) {
            retention = BatchRetention.DELETE;
        } else {
            retention = BatchRetention.DELETE_EMPTY;
        }
        return new BatchDecision(retention, canDiscard && batch.isControl());
    }

    /** Whether a record of the current batch stays; {@code key} null for a record without one. */
    public boolean retainRecord(StoredBatch batch, long offset, ByteBuffer key, boolean hasValue) {
        if (discardBatchRecords) {
            return false; // the batch stays only for its producer's state
        }
        if (batch.isControl()) {
            return true;
        }
        if (offset > map.latestOffset()) {
            return true; // newer than anything the map knows
        }
        if (key == null) {
            return false; // a compacted log cannot hold a record without a key
        }
        boolean latestOfKey = offset >= map.get(key);
        return latestOfKey && (hasValue || !horizonPassed(batch));
    }

    private boolean horizonPassed(StoredBatch batch) {
        OptionalLong horizon = batch.deleteHorizonMs();
        return horizon.isPresent() && horizon.getAsLong() <= nowMs;
    }

    private boolean isLastOfActiveProducer(StoredBatch batch) {
        LastRecord last = activeProducers.get(batch.producerId());
        if (last == null) {
            return false;
        }
        return last.lastDataOffset().isPresent()
                ? batch.lastOffset() == last.lastDataOffset().getAsLong()
                : batch.isControl() && batch.producerEpoch() == last.producerEpoch();
    }
}
