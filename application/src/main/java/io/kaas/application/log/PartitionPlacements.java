package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.log.LogDirChoice;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which log dir holds each partition, recorded durably. The partition's directory under the data directory is
 * its anchor: it holds the partition's files when the partition is placed there, and otherwise
 * {@code log-dir.json} naming the member that does ({@link PartitionState.Placement}); no record means the data
 * directory, so a single-volume layout needs none. A new partition goes to the member holding the fewest
 * partitions ({@link LogDirChoice}), or to the one an AlterReplicaLogDirs named before it existed.
 *
 * <p>A move between members is recorded by {@code log-dir-move.json} ({@link PartitionState.Move}) before any
 * file is copied; switching the placement record is its commit point. {@link #resolve} finishes a move a crash
 * interrupted: forward (remove the source) when the record names the target, back (remove the copy) otherwise.
 * Every step is idempotent, so re-driving one after a failure is safe.
 *
 * <p>On a volume shared by a cluster the operator places each partition when it creates it, recording the placement
 * before the topic's definition lets a broker open the partition; brokers never place one (each would count
 * differently), so there a partition without a record is in the data directory.
 */
final class PartitionPlacements {
    static final String RECORD = PartitionState.Placement.FILE;
    static final String MOVE = "log-dir-move.json";

    private final LogDirectories dirs;
    private final Filesystem fs;
    private final JsonCodec codec;
    private final boolean placesNewPartitions;
    private final Map<TopicPartition, String> placed = new ConcurrentHashMap<>();
    /** Where partitions not created yet go, as an AlterReplicaLogDirs asked (Apache keeps this in memory too). */
    private final Map<TopicPartition, String> preferred = new ConcurrentHashMap<>();

    /**
     * @param sharedVolume a cluster's volume: the operator places new partitions, not this broker
     */
    PartitionPlacements(LogDirectories dirs, Filesystem fs, JsonCodec codec, boolean sharedVolume) {
        this.dirs = dirs;
        this.fs = fs;
        this.codec = codec;
        this.placesNewPartitions = !sharedVolume;
    }

    LogDirectories dirs() {
        return dirs;
    }

    Filesystem fs() {
        return fs;
    }

    /**
     * The member holding the partition's files, placing a new partition first; finishes a move a crash
     * interrupted. A record naming a member this broker is not configured with is an error: opening an empty
     * log in its place would lose what that member holds.
     */
    synchronized String resolve(TopicPartition tp) throws IOException {
        Path anchor = anchor(tp);
        Optional<PartitionState.Move> move = read(anchor.resolve(MOVE), PartitionState.Move.class);
        if (move.isPresent()) {
            finish(tp, move.get());
        }
        Optional<String> recorded = recorded(tp);
        String member;
        if (recorded.isPresent()) {
            member = recorded.get();
            if (!dirs.contains(member)) {
                throw new IOException(tp + " is placed on log dir '" + member + "', which this broker's log dirs"
                        + " (KAAS_LOG_DIRS, KAAS_VOLUME_POOL) do not name;"
                        + " add it back to serve the partition");
            }
        } else if (!placesNewPartitions || dirs.names().size() == 1 || holdsLog(anchor)) {
            member = LogDirectories.DEFAULT;
        } else {
            member = place(tp, anchor);
        }
        placed.put(tp, member);
        return member;
    }

    /** The member a partition's open log is on; empty when it has not been resolved here. */
    Optional<String> of(TopicPartition tp) {
        return Optional.ofNullable(placed.get(tp));
    }

    /** Where a partition not created yet is to go (AlterReplicaLogDirs before the partition exists). */
    void prefer(TopicPartition tp, String member) {
        preferred.put(tp, member);
    }

    /** The partition's directory in a member. */
    PartitionFiles files(String member, TopicPartition tp) {
        return PartitionFiles.of(dirs.root(member), tp);
    }

    // ------------------------------------------------------------------------------------------ moves

    /** Step 1 of a move: record it, then clear whatever an earlier attempt left in the target. */
    void beginMove(TopicPartition tp, String from, String to) throws IOException {
        writeJson(anchor(tp).resolve(MOVE), new PartitionState.Move(from, to));
        removeData(to, tp);
        fs.createDirectories(files(to, tp).dir());
    }

    /** The commit point of a move: the placement record names the target. */
    synchronized void switchTo(TopicPartition tp, String to) throws IOException {
        writeJson(anchor(tp).resolve(RECORD), new PartitionState.Placement(to));
        placed.put(tp, to);
    }

    /**
     * A move that will not complete: the placement names the source again (a switch whose directory fsync failed
     * may be visible), then the copy goes, and the move's record.
     */
    synchronized void abortMove(TopicPartition tp, String from, String to) throws IOException {
        Path anchor = anchor(tp);
        if (fs.isDirectory(anchor)) { // not when the partition was deleted meanwhile
            writeJson(anchor.resolve(RECORD), new PartitionState.Placement(from));
        }
        removeData(to, tp);
        fs.deleteDurably(anchor(tp).resolve(MOVE));
    }

    /** The last step of a switched move: the source's files go, and the move's record. */
    void finishMove(TopicPartition tp, String from, String to) throws IOException {
        removeData(from, tp);
        fs.deleteDurably(anchor(tp).resolve(MOVE));
    }

    /** A deleted partition: forget it, and remove its files in whichever member holds them. */
    void delete(TopicPartition tp) throws IOException {
        String member = placed.remove(tp);
        if (member != null && !member.equals(LogDirectories.DEFAULT)) {
            fs.deleteTree(files(member, tp).dir());
        }
    }

    /** How many partitions each member holds, of those resolved here. */
    Map<String, Integer> counts() {
        Map<String, Integer> counts = new HashMap<>();
        placed.values().forEach(member -> counts.merge(member, 1, Integer::sum));
        return counts;
    }

    // ------------------------------------------------------------------------------------------ inside

    private void finish(TopicPartition tp, PartitionState.Move move) throws IOException {
        String current = recorded(tp).orElse(LogDirectories.DEFAULT);
        if (current.equals(move.to())) {
            finishMove(tp, move.from(), move.to());
        } else {
            abortMove(tp, move.from(), move.to());
        }
    }

    /**
     * A new partition's member: an empty directory there (a deleted topic's leftovers go first), then its record.
     * A crash before the record is written leaves nothing that the next placement does not clear again.
     */
    private String place(TopicPartition tp, Path anchor) throws IOException {
        String member = Optional.ofNullable(preferred.remove(tp)).filter(dirs::contains)
                .orElseGet(() -> LogDirChoice.fewestPartitions(dirs.names(), counts()));
        if (!member.equals(LogDirectories.DEFAULT)) {
            Path dir = files(member, tp).dir();
            fs.deleteTree(dir);
            fs.createDirectories(dir);
        }
        fs.createDirectories(anchor);
        writeJson(anchor.resolve(RECORD), new PartitionState.Placement(member));
        return member;
    }

    private Optional<String> recorded(TopicPartition tp) throws IOException {
        return read(anchor(tp).resolve(RECORD), PartitionState.Placement.class).map(PartitionState.Placement::logDir);
    }

    /**
     * Removes a partition's files from a member. In the data directory they share the anchor with the placement
     * and move records, which stay.
     */
    private void removeData(String member, TopicPartition tp) throws IOException {
        if (!dirs.contains(member)) {
            return; // a member no longer configured: nothing here can reach it
        }
        Path dir = files(member, tp).dir();
        if (!member.equals(LogDirectories.DEFAULT)) {
            fs.deleteTree(dir);
            return;
        }
        boolean removed = false;
        for (String name : fs.list(dir)) {
            if (!name.equals(RECORD) && !name.equals(MOVE)) {
                fs.delete(dir.resolve(name));
                removed = true;
            }
        }
        if (removed) {
            fs.fsyncDirectory(dir);
        }
    }

    /** Whether the directory holds a segment: a partition placed there before log dirs were recorded. */
    private boolean holdsLog(Path anchor) throws IOException {
        return fs.list(anchor).stream().anyMatch(name -> SegmentName.parseLogFile(name).isPresent());
    }

    private Path anchor(TopicPartition tp) {
        return files(LogDirectories.DEFAULT, tp).dir();
    }

    private <T> Optional<T> read(Path file, Class<T> type) throws IOException {
        Optional<byte[]> bytes = fs.readAll(file);
        return bytes.isEmpty() ? Optional.empty() : Optional.of(codec.decode(bytes.get(), type));
    }

    private void writeJson(Path file, Object value) throws IOException {
        fs.writeAtomically(file, codec.encode(value));
    }
}
