package io.kaas.application.log;

import io.kaas.domain.idempotence.BatchMetadata;
import io.kaas.domain.idempotence.ProducerWindow;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
     * {@code log-dir.json} or {@code log-dir.<epoch>.json}, in the partition's directory under the data directory:
     * the log dir holding the partition's files, by name. No record means the data directory itself. In a cluster
     * the operator writes {@code log-dir.json} when it creates the partition, before any broker can open it; each
     * leader then records the placement at its own epoch ({@link #file}), the highest epoch's in force.
     */
    public record Placement(String logDir, boolean moved) {
        /** The operator's record, written when it creates the partition, and a standalone broker's; epoch -1. */
        public static final String FILE = "log-dir.json";
        /** The record a partition's creation writes. */
        public static Placement created(String logDir) {
            return new Placement(logDir, false);
        }

        /**
         * The record of a move's switch (or of its undoing) by the leader at the record's epoch: it decides the
         * placement whatever the records of lower epochs say. A takeover's record only repeats the one in force below
         * its epoch ({@code moved} false), and is re-derived from them when its leader opens the partition again.
         */
        public static Placement moved(String logDir) {
            return new Placement(logDir, true);
        }

        /** The epoch {@link #FILE} stands at: below every leader's. */
        public static final int CREATION_EPOCH = -1;
        private static final Pattern LEADER_FILE = Pattern.compile("log-dir\\.(0|[1-9][0-9]{0,9})\\.json");

        /**
         * {@code log-dir.<epoch>.json}: the placement as the leader at {@code leaderEpoch} recorded it. Each leader
         * writes only its own epoch's file, so no write replaces another leader's, and the highest epoch's record is
         * the placement in force ({@link #inForce}): a deposed leader's late record loses to its successor's.
         */
        public static String file(int leaderEpoch) {
            return "log-dir." + leaderEpoch + ".json";
        }

        /** The epoch of a placement record's file name ({@link #CREATION_EPOCH} for {@link #FILE}); empty for others. */
        public static OptionalInt epochOf(String fileName) {
            if (fileName.equals(FILE)) {
                return OptionalInt.of(CREATION_EPOCH);
            }
            Matcher matcher = LEADER_FILE.matcher(fileName);
            if (!matcher.matches()) {
                return OptionalInt.empty();
            }
            long epoch = Long.parseLong(matcher.group(1));
            return epoch > Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of((int) epoch);
        }

        /** Whether a file of a partition's directory is a placement record. */
        public static boolean isRecord(String fileName) {
            return epochOf(fileName).isPresent();
        }

        /**
         * Of a partition directory's file names, the placement record in force: the highest epoch's; empty when
         * there is none (the partition is in the data directory).
         */
        public static Optional<String> inForce(Collection<String> fileNames) {
            return inForce(fileNames, Long.MAX_VALUE);
        }

        /** {@link #inForce(Collection)} among the records below {@code belowEpoch}: what a takeover at it finds. */
        public static Optional<String> inForce(Collection<String> fileNames, long belowEpoch) {
            String best = null;
            int bestEpoch = Integer.MIN_VALUE;
            for (String name : fileNames) {
                OptionalInt epoch = epochOf(name);
                if (epoch.isPresent() && epoch.getAsInt() < belowEpoch && epoch.getAsInt() > bestEpoch) {
                    best = name;
                    bestEpoch = epoch.getAsInt();
                }
            }
            return Optional.ofNullable(best);
        }
    }

    /**
     * {@code log-dir-move.json}, beside the placement: a move between log dirs has started. Whoever finds it
     * finishes what the placement says: the files in {@code to} are the partition's once the placement names
     * {@code to}, so {@code from}'s are removed; until then {@code to}'s copy is removed.
     */
    public record Move(String from, String to) {
    }
}
