package io.kaas.application.log;

import io.kaas.domain.batch.ControlBatch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.idempotence.CompletedTransaction;
import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.ProducerWindow;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.txn.TxnMarker;
import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;

/**
 * What the disk and memory logs share about transactions: the marker batch they append, the
 * last stable offset, the aborted-index entry a marker produces, trimming a read to the stable
 * part, and picking the aborted transactions a read overlaps.
 */
final class TransactionalState {
    private TransactionalState() {
    }

    /** The control batch for {@code marker}, stamped with the broker's time. */
    static ByteBuffer markerBatch(TxnMarker marker, long nowMs) {
        return ControlBatch.encode(marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(),
                marker.commit() ? ControlBatch.Type.COMMIT : ControlBatch.Type.ABORT, nowMs);
    }

    /** The first offset of the oldest transaction in progress, or {@code highWatermark} when none is below it. */
    static long lastStableOffset(ProducerStateTable producers, long highWatermark) {
        return Math.min(producers.firstUnstableOffset().orElse(highWatermark), highWatermark);
    }

    /** The index entry of an aborted transaction whose marker was just recorded (Apache stores the LSO after it). */
    static AbortedTxn abortedEntry(CompletedTransaction aborted, ProducerStateTable producers) {
        return new AbortedTxn(aborted.producerId(), aborted.firstOffset(), aborted.lastOffset(),
                lastStableOffset(producers, aborted.lastOffset() + 1));
    }

    /** Length of the prefix of whole batches in {@code records} whose base offset is below {@code cap}. */
    static int prefixBelow(ByteBuffer records, long cap) {
        int position = records.position();
        while (position + RecordBatchHeader.LOG_OVERHEAD <= records.limit()) {
            RecordBatchHeader header = RecordBatchHeader.at(records, position);
            if (header.baseOffset() >= cap || position + header.sizeInBytes() > records.limit()) {
                break;
            }
            position += header.sizeInBytes();
        }
        return position - records.position();
    }

    /** The offset after the last batch in {@code records} (whole batches), or -1 when it holds none. */
    static long endOffset(ByteBuffer records) {
        long end = -1L;
        int position = records.position();
        while (position + RecordBatchHeader.HEADER_SIZE <= records.limit()) {
            RecordBatchHeader header = RecordBatchHeader.at(records, position);
            end = header.lastOffset() + 1;
            position += header.sizeInBytes();
        }
        return end;
    }

    /**
     * Adds to {@code out} the entries of one index (in marker order) that overlap
     * {@code [fetchOffset, upperBoundOffset)}; true once an entry shows nothing later can (its
     * last stable offset reaches the bound), as Apache's {@code TransactionIndex.collectAbortedTxns}.
     */
    static boolean collect(AppendOnlyList<AbortedTxn> index, int count, long fetchOffset, long upperBoundOffset,
                           List<AbortedTxn> out) {
        int lo = 0;
        int hi = count;
        while (lo < hi) { // entries are in marker order: skip those ending before the fetch offset
            int mid = (lo + hi) >>> 1;
            if (index.get(mid).lastOffset() < fetchOffset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < count; i++) {
            AbortedTxn txn = index.get(i);
            if (txn.overlaps(fetchOffset, upperBoundOffset)) {
                out.add(txn);
            }
            if (txn.lastStableOffset() >= upperBoundOffset) {
                return true;
            }
        }
        return false;
    }

    /** DescribeProducers' view of the table, by producer id. */
    static List<ProducerState> describe(ProducerStateTable producers) {
        return producers.windows().stream()
                .sorted(Comparator.comparingLong(ProducerWindow::producerId))
                .map(w -> new ProducerState(w.producerId(), w.epoch(), w.lastSequence(), w.describedTimestamp(),
                        w.coordinatorEpoch(), w.currentTxnFirstOffset()))
                .toList();
    }
}
