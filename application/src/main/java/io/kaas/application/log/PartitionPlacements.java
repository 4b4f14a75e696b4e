package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.log.LogDirChoice;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which log dir holds each partition, recorded durably. The partition's directory under the data directory is
 * its anchor: it holds the partition's files when the partition is placed there, and the placement records
 * ({@link PartitionState.Placement}) naming the member that holds them; no record means the data directory, so a
 * single-volume layout needs none. A new partition goes to the member holding the fewest partitions
 * ({@link LogDirChoice}), or to the one an AlterReplicaLogDirs named before it existed.
 *
 * <p>A move between members is recorded by {@code log-dir-move.json} ({@link PartitionState.Move}) before any
 * file is copied; the switch of the placement record is its commit point. {@link #resolve} finishes a move a crash
 * interrupted: forward (remove the source) when the placement names the target, back (remove the copy) otherwise.
 * Every step is idempotent, so re-driving one after a failure is safe.
 *
 * <p>On a volume shared by a cluster the operator places each partition when it creates it, recording the placement
 * ({@code log-dir.json}) before the topic's definition lets a broker open the partition; brokers never place one
 * (each would count differently), so there a partition without a record is in the data directory. Moves there are
 * fenced by leader epoch without any compare-and-swap, each leader writing only {@code log-dir.<its epoch>.json}, the
 * highest epoch's record in force. Both sides write first and read after, so of a takeover and a deposed leader's
 * switch at least one sees the other:
 * <ul>
 *   <li>a takeover ({@link #resolve}) records the placement in force below its epoch at its epoch, then reads the
 *       records again, and again records what changed meanwhile, until a read agrees with what it recorded; only
 *       then does it open the log there, after removing the partition's files from every other member (a switched
 *       move's source, or a copy an undone or deposed move left) and the move's record;</li>
 *   <li>a switch ({@link #switchTo}) records the target at the mover's epoch, then reads: a record of a higher
 *       epoch means a takeover that may not have seen the switch, and the mover serves nothing
 *       ({@link #supersededAt}). An undone move records the source the same way, and removes the copy only if
 *       nobody superseded it; the source's removal after a switch ({@link #finishMove}) happens only while the
 *       switch is still the record in force.</li>
 * </ul>
 * So a takeover that opens the source knows every later switch of the old leader is read as superseded, and one that
 * opens the target opens a copy the switch completed. A copy a deposed mover leaves behind is removed by whoever
 * next takes the partition over or moves it.
 */
final class PartitionPlacements {
    static final String MOVE = "log-dir-move.json";
    /** A takeover's records are re-read at most this often before its open gives up (and is retried). */
    private static final int MAX_RECORD_ROUNDS = 16;

    private final LogDirectories dirs;
    private final Filesystem fs;
    private final JsonCodec codec;
    private final boolean sharedVolume;
    private final Map<TopicPartition, String> placed = new ConcurrentHashMap<>();
    /** Where partitions not created yet go, as an AlterReplicaLogDirs asked (Apache keeps this in memory too). */
    private final Map<TopicPartition, String> preferred = new ConcurrentHashMap<>();

    /**
     * @param sharedVolume a cluster's volume: the operator places new partitions, not this broker, and each
     *                     takeover records the placement at its leader epoch
     */
    PartitionPlacements(LogDirectories dirs, Filesystem fs, JsonCodec codec, boolean sharedVolume) {
        this.dirs = dirs;
        this.fs = fs;
        this.codec = codec;
        this.sharedVolume = sharedVolume;
    }

    LogDirectories dirs() {
        return dirs;
    }

    Filesystem fs() {
        return fs;
    }

    /**
     * The member holding the partition's files, placing a new partition first; finishes a move a crash or a deposed
     * leader left. On a shared volume, records the placement at {@code leaderEpoch} first (see above), and refuses
     * when a leader of a higher epoch recorded one already. A record naming a member this broker is not configured
     * with is an error: opening an empty log in its place would lose what that member holds.
     */
    synchronized String resolve(TopicPartition tp, int leaderEpoch) throws IOException {
        Path anchor = anchor(tp);
        String member;
        if (sharedVolume) {
            member = recordAt(tp, leaderEpoch);
            removeStrayCopies(tp, member);
            pruneBelow(tp, leaderEpoch);
        } else {
            Optional<PartitionState.Move> move = read(anchor.resolve(MOVE), PartitionState.Move.class);
            if (move.isPresent()) {
                settle(tp, move.get(), inForce(tp).orElse(LogDirectories.DEFAULT));
            }
            Optional<String> recorded = inForce(tp);
            if (recorded.isPresent()) {
                member = recorded.get();
            } else if (dirs.names().size() == 1 || holdsLog(anchor)) {
                member = LogDirectories.DEFAULT;
            } else {
                member = place(tp, anchor);
            }
        }
        if (!dirs.contains(member)) {
            throw new IOException(tp + " is placed on log dir '" + member + "', which this broker's log dirs"
                    + " (KAAS_LOG_DIRS, KAAS_VOLUME_POOL) do not name;"
                    + " add it back to serve the partition");
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

    /**
     * Step 1 of a move: settle what an earlier move left (a deposed mover's copy elsewhere), record this one, then
     * clear whatever an earlier attempt left in the target.
     */
    void beginMove(TopicPartition tp, String from, String to) throws IOException {
        Optional<PartitionState.Move> earlier = read(anchor(tp).resolve(MOVE), PartitionState.Move.class);
        if (earlier.isPresent()) {
            settle(tp, earlier.get(), from);
        }
        writeJson(anchor(tp).resolve(MOVE), new PartitionState.Move(from, to));
        removeData(to, tp);
        fs.createDirectories(files(to, tp).dir());
    }

    /**
     * The commit point of a move: the placement record of the mover's epoch names the target. The caller serves the
     * target only if {@link #supersededAt} then finds no newer leader.
     */
    synchronized void switchTo(TopicPartition tp, String to, int leaderEpoch) throws IOException {
        writeJson(anchor(tp).resolve(PartitionState.Placement.file(leaderEpoch)), PartitionState.Placement.moved(to));
        placed.put(tp, to);
    }

    /**
     * The highest epoch above {@code leaderEpoch} that recorded the placement: a takeover that happened since this
     * leader opened the partition; read after this leader's own record, so a takeover it misses saw that record.
     */
    OptionalInt supersededAt(TopicPartition tp, int leaderEpoch) throws IOException {
        if (!sharedVolume) {
            return OptionalInt.empty(); // one broker: no other leader
        }
        int newest = newestEpoch(fs.list(anchor(tp)));
        return newest > leaderEpoch ? OptionalInt.of(newest) : OptionalInt.empty();
    }

    /**
     * A move that will not complete: the placement names the source again (a switch whose directory fsync failed
     * may be visible), then the copy goes, and the move's record; unless a newer leader recorded the placement
     * meanwhile, which may have opened the copy: that one settles the move. Whether the source is this leader's to
     * serve again (not when superseded, nor when the partition was deleted meanwhile).
     */
    synchronized boolean abortMove(TopicPartition tp, String from, String to, int leaderEpoch) throws IOException {
        Path anchor = anchor(tp);
        if (!fs.isDirectory(anchor)) {
            return false;
        }
        writeJson(anchor.resolve(PartitionState.Placement.file(leaderEpoch)), PartitionState.Placement.moved(from));
        placed.put(tp, from);
        if (supersededAt(tp, leaderEpoch).isPresent()) {
            return false;
        }
        removeData(to, tp);
        fs.deleteDurably(anchor.resolve(MOVE));
        return true;
    }

    /**
     * The last step of a switched move: the source's files go, and the move's record; only while this leader's
     * switch is still the placement in force (a newer leader settles the move itself, and may move it back).
     */
    void finishMove(TopicPartition tp, String from, String to, int leaderEpoch) throws IOException {
        List<String> names = fs.list(anchor(tp));
        Optional<String> inForce = PartitionState.Placement.inForce(names);
        boolean stillOurs = inForce.isPresent() && inForce.get().equals(PartitionState.Placement.file(leaderEpoch))
                && placementIn(anchor(tp), inForce).equals(to);
        if (stillOurs) {
            removeData(from, tp);
            fs.deleteDurably(anchor(tp).resolve(MOVE));
        }
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

    /** A move record found: what is not {@code current} (the placement in force) goes, then the record. */
    private void settle(TopicPartition tp, PartitionState.Move move, String current) throws IOException {
        if (!move.from().equals(current)) {
            removeData(move.from(), tp);
        }
        if (!move.to().equals(current)) {
            removeData(move.to(), tp);
        }
        fs.deleteDurably(anchor(tp).resolve(MOVE));
    }

    /**
     * A takeover's record (see the class comment): this epoch's own record if a move of this epoch wrote it;
     * otherwise the placement in force below the epoch, recorded at it and read back until the two agree.
     */
    private String recordAt(TopicPartition tp, int epoch) throws IOException {
        Path anchor = anchor(tp);
        Path own = anchor.resolve(PartitionState.Placement.file(epoch));
        fs.createDirectories(anchor);
        List<String> names = fs.list(anchor);
        refuseIfSuperseded(tp, names, epoch);
        Optional<PartitionState.Placement> mine = read(own, PartitionState.Placement.class);
        if (mine.isPresent() && mine.get().moved()) {
            return mine.get().logDir();
        }
        String member = placementIn(anchor, PartitionState.Placement.inForce(names, epoch));
        for (int round = 0; round < MAX_RECORD_ROUNDS; round++) {
            writeJson(own, PartitionState.Placement.created(member));
            names = fs.list(anchor);
            refuseIfSuperseded(tp, names, epoch);
            String again = placementIn(anchor, PartitionState.Placement.inForce(names, epoch));
            if (again.equals(member)) {
                return member;
            }
            member = again; // a deposed leader's switch or undo landed meanwhile: follow it
        }
        throw new IOException("the placement records of " + tp + " kept changing while leader epoch " + epoch
                + " recorded its own");
    }

    private void refuseIfSuperseded(TopicPartition tp, List<String> names, int epoch) throws IOException {
        int newest = newestEpoch(names);
        if (newest > epoch) {
            throw new IOException(tp + " was taken over at leader epoch " + newest + " already; this broker was to"
                    + " lead it at epoch " + epoch);
        }
    }

    /**
     * A takeover's settling of what moves left: the partition's files in every member but {@code member} go (a
     * switched move's source, a copy an undone or deposed move left, whether or not its move record is still there),
     * then the move's record.
     */
    private void removeStrayCopies(TopicPartition tp, String member) throws IOException {
        for (String other : dirs.names()) {
            boolean stray = other.equals(LogDirectories.DEFAULT) || fs.exists(files(other, tp).dir());
            if (!other.equals(member) && stray) {
                removeData(other, tp);
            }
        }
        Path move = anchor(tp).resolve(MOVE);
        if (fs.exists(move)) {
            fs.deleteDurably(move);
        }
    }

    /** The records below a takeover's own: the placement in force is its record now, and they only pile up. */
    private void pruneBelow(TopicPartition tp, int epoch) throws IOException {
        Path anchor = anchor(tp);
        for (String name : fs.list(anchor)) {
            OptionalInt recorded = PartitionState.Placement.epochOf(name);
            if (recorded.isPresent() && recorded.getAsInt() < epoch
                    && recorded.getAsInt() != PartitionState.Placement.CREATION_EPOCH) {
                fs.delete(anchor.resolve(name));
            }
        }
    }

    private static int newestEpoch(List<String> names) {
        return names.stream().map(PartitionState.Placement::epochOf).filter(OptionalInt::isPresent)
                .mapToInt(OptionalInt::getAsInt).max().orElse(PartitionState.Placement.CREATION_EPOCH);
    }

    /** The member the record file names; the data directory when there is none. */
    private String placementIn(Path anchor, Optional<String> record) throws IOException {
        if (record.isEmpty()) {
            return LogDirectories.DEFAULT;
        }
        return read(anchor.resolve(record.get()), PartitionState.Placement.class)
                .map(PartitionState.Placement::logDir).orElse(LogDirectories.DEFAULT);
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
        writeJson(anchor.resolve(PartitionState.Placement.FILE), PartitionState.Placement.created(member));
        return member;
    }

    /** The member the record in force names; empty without a record. */
    private Optional<String> inForce(TopicPartition tp) throws IOException {
        Optional<String> record = PartitionState.Placement.inForce(fs.list(anchor(tp)));
        return record.isEmpty() ? Optional.empty() : Optional.of(placementIn(anchor(tp), record));
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
            if (!PartitionState.Placement.isRecord(name) && !name.equals(MOVE)) {
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
