package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves partitions' logs between log dirs (AlterReplicaLogDirs), one at a time on the mover executor, never on a
 * request's thread. A move, while producers and consumers keep going:
 * <ol>
 *   <li>records the move beside the placement, and clears the target ({@link PartitionPlacements#beginMove});</li>
 *   <li>copies the sealed segments, twice: the second pass catches up with what was sealed during the first;</li>
 *   <li>the switch, brief: the partition stops being served, its log closes (everything fsynced, the state files
 *       written), the rest is copied (the active segment, the state files), the log opens in the target, the
 *       placement record of the log's leader epoch names the target, and the log is served from there; requests
 *       meanwhile get the retriable NOT_LEADER_OR_FOLLOWER;</li>
 *   <li>after {@code file.delete.delay.ms}, when the reads in flight on the old files are done, the source's files
 *       go and the move's record.</li>
 * </ol>
 * A failure before the placement switch removes the copy and serves the log where it was; a crash anywhere is
 * finished by the next open ({@link PartitionPlacements#resolve}), so the files and the record never disagree.
 *
 * <p>On a cluster's shared volume the partition's leader moves it, and another broker may take it over at a higher
 * leader epoch at any step. The placement records are fenced by epoch ({@link PartitionPlacements}): after its switch
 * (or the undoing of a failed one) the mover reads the records again, and a takeover's record there means the new
 * leader may have opened either copy, so this broker serves neither and removes nothing; the new leader settles the
 * move. Every log a move opens is opened at exactly the epoch it led at, never adopting a newer leader's.
 */
final class LogDirMoves {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirMoves.class);

    /** Opens a partition's log in a member at exactly a leader epoch: refused if a newer leader fenced its files. */
    interface Opener {
        DiskPartitionLog open(TopicPartition tp, String member, LogConfig config, int leaderEpoch) throws IOException;
    }

    private final PartitionPlacements placements;
    private final Map<TopicPartition, DiskPartitionLog> logs;
    private final Opener opener;
    private final Executor mover;
    private final boolean sharedVolume;
    /** The target each partition is to end up in, as the last request said. */
    private final Map<TopicPartition, String> targets = new ConcurrentHashMap<>();
    /** The copy of the move running now, per partition. */
    private final Map<TopicPartition, Running> running = new ConcurrentHashMap<>();
    /** Source files waiting for their reads to finish; whoever removes an entry runs it. */
    private final Map<TopicPartition, Runnable> cleanups = new ConcurrentHashMap<>();

    private record Running(String to, LogDirCopy copy) {
    }

    /** @param sharedVolume a cluster's volume: partitions are never placed here before they exist */
    LogDirMoves(PartitionPlacements placements, Map<TopicPartition, DiskPartitionLog> logs, Opener opener,
                Executor mover, boolean sharedVolume) {
        this.placements = placements;
        this.logs = logs;
        this.opener = opener;
        this.mover = mover;
        this.sharedVolume = sharedVolume;
    }

    /** See {@link LogEngine#moveLog}. */
    KafkaError request(TopicPartition tp, String destination, LogEngine.LogSwap swap) {
        Optional<String> to = placements.dirs().named(destination);
        if (to.isEmpty()) {
            return KafkaError.LOG_DIR_NOT_FOUND;
        }
        if (!online(to.get())) {
            return KafkaError.KAFKA_STORAGE_ERROR; // Apache's answer for an offline log dir
        }
        if (!logs.containsKey(tp)) {
            if (!sharedVolume) { // in a cluster the operator places new partitions, and another broker leads this one
                placements.prefer(tp, to.get());
            }
            return KafkaError.REPLICA_NOT_AVAILABLE;
        }
        targets.put(tp, to.get());
        mover.execute(() -> moveToTarget(tp, swap));
        return KafkaError.NONE;
    }

    /** Whether a member's root is there: a volume that went away (an unmounted member) is offline. */
    private boolean online(String member) {
        try {
            return placements.fs().isDirectory(placements.dirs().root(member));
        } catch (IOException e) {
            LOG.warn("log dir {} cannot be reached", member, e);
            return false;
        }
    }

    /** The copy a running move is making. */
    Optional<LogEngine.FutureLog> future(TopicPartition tp) {
        Running move = running.get(tp);
        DiskPartitionLog log = logs.get(tp);
        if (move == null || log == null) {
            return Optional.empty();
        }
        long lag = Math.max(0, log.offsets().logEndOffset() - move.copy().copiedThroughOffset());
        return Optional.of(new LogEngine.FutureLog(placements.dirs().path(move.to()), move.copy().copiedBytes(), lag));
    }

    /** Removes now the source files of a finished move still waiting for its reads (the partition is deleted). */
    void cleanUpNow(TopicPartition tp) {
        Runnable cleanup = cleanups.remove(tp);
        if (cleanup != null) {
            cleanup.run();
        }
    }

    private void moveToTarget(TopicPartition tp, LogEngine.LogSwap swap) {
        String to = targets.get(tp);
        DiskPartitionLog log = logs.get(tp);
        Optional<String> from = placements.of(tp);
        if (to == null || log == null || from.isEmpty() || from.get().equals(to)) {
            if (to != null) {
                targets.remove(tp, to);
            }
            return; // done by an earlier task, or the partition is not served here any more
        }
        cleanUpNow(tp); // a previous move's source may be this move's target
        try {
            move(tp, log, from.get(), to, swap);
        } catch (IOException | RuntimeException e) {
            LOG.error("moving {} from log dir {} to {} failed; it stays in {}", tp, from.get(), to, from.get(), e);
            abort(tp, from.get(), to, log.leaderEpoch());
        } finally {
            running.remove(tp);
            targets.remove(tp, to);
        }
    }

    private void move(TopicPartition tp, DiskPartitionLog log, String from, String to, LogEngine.LogSwap swap)
            throws IOException {
        LOG.info("moving {} from log dir {} to {}", tp, from, to);
        placements.beginMove(tp, from, to);
        LogDirCopy copy = new LogDirCopy(placements.fs(), log.files(), placements.files(to, tp));
        running.put(tp, new Running(to, copy));
        copy.copySealed(log.sealedSegments());
        copy.copySealed(log.sealedSegments()); // catch up with what was sealed meanwhile
        boolean switched = swap.swap(log, () -> switchOver(tp, log, copy, from, to));
        if (!switched) {
            abort(tp, from, to, log.leaderEpoch()); // deleted or relinquished meanwhile: the copy is of nothing served
        }
    }

    /**
     * Under the swap: the log is not served. Returns the log to serve: in the target, or where it was on a failure;
     * null when a newer leader took the partition over meanwhile.
     */
    private PartitionLog switchOver(TopicPartition tp, DiskPartitionLog log, LogDirCopy copy, String from, String to) {
        logs.remove(tp, log);
        int epoch = log.leaderEpoch();
        DiskPartitionLog moved = null;
        try {
            copy.copyRest(log.closeForMove());
            moved = opener.open(tp, to, log.config(), epoch); // recovered before any record names the target
            placements.switchTo(tp, to, epoch);
        } catch (IOException | RuntimeException e) {
            LOG.error("the switch of {} to log dir {} failed; it is served from {} again", tp, to, from, e);
            if (moved != null) {
                moved.abandon();
            }
            log.closeHandlesLater(() -> { });
            return abort(tp, from, to, epoch) ? reopen(tp, from, log) : null;
        }
        if (superseded(tp, epoch, moved)) {
            log.closeHandlesLater(() -> { });
            return null;
        }
        logs.put(tp, moved);
        Runnable cleanup = () -> removeSource(tp, from, to, epoch);
        cleanups.put(tp, cleanup);
        log.closeHandlesLater(() -> mover.execute(() -> {
            if (cleanups.remove(tp, cleanup)) {
                cleanup.run();
            }
        }));
        LOG.info("moved {} from log dir {} to {} at log end offset {}", tp, from, to, moved.offsets().logEndOffset());
        return moved;
    }

    /** The source again, after a failed switch; null when it cannot be served (opening failed, or superseded). */
    private DiskPartitionLog reopen(TopicPartition tp, String from, DiskPartitionLog closed) {
        DiskPartitionLog opened;
        try {
            opened = opener.open(tp, from, closed.config(), closed.leaderEpoch());
        } catch (IOException | RuntimeException e) {
            LOG.error("{} cannot be opened in log dir {} again; it is served again once it opens (a takeover or a"
                    + " restart)", tp, from, e);
            return null;
        }
        if (superseded(tp, closed.leaderEpoch(), opened)) {
            return null;
        }
        logs.put(tp, opened);
        return opened;
    }

    /**
     * Whether a leader of a higher epoch recorded the placement since this one opened the partition, read after this
     * one's own record: then the new leader may have opened either copy, and {@code opened} is closed unserved.
     */
    private boolean superseded(TopicPartition tp, int epoch, DiskPartitionLog opened) {
        OptionalInt newer;
        try {
            newer = placements.supersededAt(tp, epoch);
        } catch (IOException e) {
            LOG.error("the placement records of {} cannot be read; not serving it, as a newer leader may have taken"
                    + " it over", tp, e);
            newer = OptionalInt.of(epoch + 1);
        }
        if (newer.isEmpty()) {
            return false;
        }
        LOG.warn("{} was taken over at leader epoch {} during its move at epoch {}; this broker serves it no more and"
                + " leaves the move to the new leader", tp, newer.getAsInt(), epoch);
        opened.abandon();
        return true;
    }

    private void removeSource(TopicPartition tp, String from, String to, int epoch) {
        try {
            placements.finishMove(tp, from, to, epoch);
        } catch (IOException e) {
            LOG.warn("removing the files {} left in log dir {} failed; the next open of it removes them", tp, from, e);
        }
    }

    /**
     * Undoes a move that will not complete; whether the source is the placement again for this leader to serve (not
     * when a newer leader superseded it, nor when the undoing failed: the next open settles the move).
     */
    private boolean abort(TopicPartition tp, String from, String to, int epoch) {
        try {
            return placements.abortMove(tp, from, to, epoch);
        } catch (IOException e) {
            LOG.warn("undoing the move of {} to log dir {} failed; the next open of it settles it", tp, to, e);
            return false;
        }
    }
}
