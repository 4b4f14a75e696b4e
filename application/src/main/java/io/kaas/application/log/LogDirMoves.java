package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
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
 *       written), the rest is copied (the active segment, the state files), the placement record names the target,
 *       and the log opens there and is served; requests meanwhile get the retriable NOT_LEADER_OR_FOLLOWER;</li>
 *   <li>after {@code file.delete.delay.ms}, when the reads in flight on the old files are done, the source's files
 *       go and the move's record.</li>
 * </ol>
 * A failure before the placement switch removes the copy and serves the log where it was; a crash anywhere is
 * finished by the next open ({@link PartitionPlacements#resolve}), so the files and the record never disagree.
 *
 * <p>Not on a cluster's shared volume: there another broker may take the partition over mid-move and finish the move
 * its way while this one still copies and switches, and nothing fences the placement record by leader epoch; a move
 * there is refused (INVALID_REQUEST) until one does.
 */
final class LogDirMoves {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirMoves.class);

    /** Opens a partition's log where its placement record says, at a leader epoch. */
    interface Opener {
        DiskPartitionLog open(TopicPartition tp, LogConfig config, int leaderEpoch);
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

    /** @param sharedVolume a cluster's volume: moves are refused (see above) */
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
        if (sharedVolume) {
            boolean there = logs.containsKey(tp) && placements.of(tp).filter(to.get()::equals).isPresent();
            if (!there) {
                LOG.warn("AlterReplicaLogDirs of {} to log dir {} refused: moves between log dirs are not served on a"
                        + " cluster's shared volume", tp, to.get());
            }
            return there ? KafkaError.NONE : KafkaError.INVALID_REQUEST;
        }
        if (!online(to.get())) {
            return KafkaError.KAFKA_STORAGE_ERROR; // Apache's answer for an offline log dir
        }
        if (!logs.containsKey(tp)) {
            placements.prefer(tp, to.get());
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
            if (placements.of(tp).filter(to::equals).isPresent()) {
                // switched: the target holds the partition now, only opening it there failed
                LOG.error("{} is in log dir {} now, but opening it there failed; it is served again once it opens"
                        + " (a restart)", tp, to, e);
            } else {
                LOG.error("moving {} from log dir {} to {} failed; it stays in {}", tp, from.get(), to, from.get(), e);
                abort(tp, from.get(), to);
            }
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
            abort(tp, from, to); // deleted or relinquished meanwhile: the copy is of nothing served
        }
    }

    /** Under the swap: the log is not served. Returns the log to serve: in the target, or where it was on a failure. */
    private PartitionLog switchOver(TopicPartition tp, DiskPartitionLog log, LogDirCopy copy, String from, String to) {
        logs.remove(tp, log);
        try {
            copy.copyRest(log.closeForMove());
            placements.switchTo(tp, to);
        } catch (IOException | RuntimeException e) {
            LOG.error("the switch of {} to log dir {} failed; it is served from {} again", tp, to, from, e);
            log.closeHandlesLater(() -> { });
            abort(tp, from, to);
            return reopen(tp, log);
        }
        DiskPartitionLog moved = reopen(tp, log);
        Runnable cleanup = () -> removeSource(tp, from, to);
        cleanups.put(tp, cleanup);
        log.closeHandlesLater(() -> mover.execute(() -> {
            if (cleanups.remove(tp, cleanup)) {
                cleanup.run();
            }
        }));
        LOG.info("moved {} from log dir {} to {} at log end offset {}", tp, from, to, moved.offsets().logEndOffset());
        return moved;
    }

    private DiskPartitionLog reopen(TopicPartition tp, DiskPartitionLog closed) {
        DiskPartitionLog opened = opener.open(tp, closed.config(), closed.leaderEpoch());
        logs.put(tp, opened);
        return opened;
    }

    private void removeSource(TopicPartition tp, String from, String to) {
        try {
            placements.finishMove(tp, from, to);
        } catch (IOException e) {
            LOG.warn("removing the files {} left in log dir {} failed; the next open of it removes them", tp, from, e);
        }
    }

    private void abort(TopicPartition tp, String from, String to) {
        try {
            placements.abortMove(tp, from, to);
        } catch (IOException e) {
            LOG.warn("removing the copy of {} in log dir {} failed; the next open of it removes it", tp, to, e);
        }
    }
}
