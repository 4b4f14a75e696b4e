package io.kaas.domain.compaction;

import java.nio.ByteBuffer;

/**
 * Fills a {@link KeyOffsetMap} from the dirty part of a log, walked batch by batch in offset order
 * (Apache's {@code buildOffsetMap}): the keys of data batches from {@code startOffset} on, but not
 * those of aborted transactions, nor anything at or past {@code stopOffset} (the first uncleanable
 * offset). Stops when the map is full; the map's latest offset then says how far it got.
 */
public final class OffsetMapBuilder {
    private final KeyOffsetMap map;
    private final CleanedTransactions transactions;
    private final long startOffset;
    private final long stopOffset;
    private boolean stopped;

    public OffsetMapBuilder(KeyOffsetMap map, CleanedTransactions transactions, long startOffset, long stopOffset) {
        this.map = map;
        this.transactions = transactions;
        this.startOffset = startOffset;
        this.stopOffset = stopOffset;
    }

    /** A batch begins: whether its records' keys are wanted. False for every batch once the walk is over. */
    public boolean startBatch(StoredBatch batch) {
        if (stopped || batch.baseOffset() >= stopOffset) {
            stopped = true;
            return false;
        }
        if (batch.isControl()) {
            transactions.onControlBatch(batch);
            return false;
        }
        return !transactions.onBatch(batch);
    }

    /** A record of a wanted batch; {@code key} null for a record without one. */
    public void record(long offset, ByteBuffer key) {
        if (stopped || key == null || offset < startOffset) {
            return;
        }
        if (!map.put(key, offset)) {
            stopped = true; // full: this batch is only partly in the map, so it does not count as covered
        }
    }

    /** A batch ends: the map now covers it (unless the walk stopped in it). False once the walk is over. */
    public boolean endBatch(StoredBatch batch) {
        if (stopped) {
            return false;
        }
        if (batch.lastOffset() >= startOffset) {
            map.updateLatestOffset(batch.lastOffset());
        }
        return true;
    }

    /** Whether the walk is over: the map is full or the stop offset is reached. */
    public boolean stopped() {
        return stopped;
    }
}
