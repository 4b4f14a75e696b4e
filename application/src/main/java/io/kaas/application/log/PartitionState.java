package io.kaas.application.log;

import io.kaas.domain.idempotence.BatchMetadata;
import io.kaas.domain.idempotence.ProducerWindow;
import java.util.Collection;
import java.util.List;

/** The small JSON files beside a partition's segments. */
public final class PartitionState {
    private PartitionState() {
    }

    /**
     * {@code manifest.json}: written on open and on close, so it may lag; the log is authoritative.
     */
    public record Manifest(int epoch, long highWatermark, long logStartOffset) {
    }

    /**
     * {@code recovery-checkpoint.json}: every byte of {@code segment}'s log below
     * {@code bytePosition} is fsynced and ends at {@code nextOffset}; recovery scans only what follows.
     */
    public record Checkpoint(String segment, long bytePosition, long nextOffset) {
    }

    /**
     * {@code producer-state.snapshot}: the producers' dedupe windows and transactions in progress as
     * of {@code offset} (the log end they cover).
     */
    public record ProducerSnapshot(long offset, List<Producer> producers) {

        public static ProducerSnapshot of(long offset, Collection<ProducerWindow> windows) {
            return new ProducerSnapshot(offset, windows.stream().map(w -> new Producer(w.producerId(), w.epoch(),
                    w.lastTimestamp(), w.describedTimestamp(), w.batches().stream().map(Batch::of).toList(),
                    w.currentTxnFirstOffset(), w.coordinatorEpoch())).toList());
        }

        public List<ProducerWindow> windows() {
            return producers.stream().map(p -> ProducerWindow.restore(p.producerId(), p.epoch(), p.lastTimestamp(),
                    p.describedTimestamp() == null ? p.lastTimestamp() : p.describedTimestamp(),
                    p.batches().stream().map(Batch::toMetadata).toList(),
                    p.currentTxnFirstOffset() == null ? ProducerWindow.NO_TRANSACTION : p.currentTxnFirstOffset(),
                    p.coordinatorEpoch() == null ? ProducerWindow.NO_COORDINATOR_EPOCH : p.coordinatorEpoch())).toList();
        }

        /**
         * One producer; {@code currentTxnFirstOffset} and {@code coordinatorEpoch} are absent (null) in
         * snapshots written before transactions, and then mean none; {@code describedTimestamp} is
         * absent in older snapshots, and then is {@code lastTimestamp}.
         */
        public record Producer(long producerId, short epoch, long lastTimestamp, Long describedTimestamp,
                               List<Batch> batches, Long currentTxnFirstOffset, Integer coordinatorEpoch) {
        }

        public record Batch(int firstSequence, int lastSequence, long firstOffset, int offsetDelta, long maxTimestamp) {
            static Batch of(BatchMetadata b) {
                return new Batch(b.firstSequence(), b.lastSequence(), b.firstOffset(), b.offsetDelta(), b.maxTimestamp());
            }

            BatchMetadata toMetadata() {
                return new BatchMetadata(firstSequence, lastSequence, firstOffset, offsetDelta, maxTimestamp);
            }
        }
    }

    /**
     * {@code cleaner-checkpoint.json}: every segment starting below {@code cleanedThrough} may have
     * been rewritten by the log cleaner, so its offsets may have gaps; the next cleaning's dirty part
     * starts there.
     */
    public record CleanerCheckpoint(long cleanedThrough) {
    }

    /**
     * {@code cleaning-swap.json}, a cleaning's commit point: each group's cleaned files (written
     * beside the segment named {@code segment} with a {@code .cleaned} suffix, fsynced) replace the
     * segments named in {@code replaces}. Whoever finds it completes the swap, then writes the
     * checkpoint {@code cleanedThrough} and removes it.
     */
    public record CleaningSwap(long cleanedThrough, List<Group> groups) {
        public record Group(String segment, List<String> replaces) {
        }
    }

    /**
     * {@code log-dir.json}, in the partition's directory under the data directory: the log dir holding the
     * partition's files, by name. Its absence means the data directory itself. In a cluster the operator writes
     * it when it creates the partition, before any broker can open it.
     */
    public record Placement(String logDir) {
        /** The record's file name. */
        public static final String FILE = "log-dir.json";
    }

    /**
     * {@code log-dir-move.json}, beside the placement: a move between log dirs has started. Whoever finds it
     * finishes what the placement says: the files in {@code to} are the partition's once the placement names
     * {@code to}, so {@code from}'s are removed; until then {@code to}'s copy is removed.
     */
    public record Move(String from, String to) {
    }
}
