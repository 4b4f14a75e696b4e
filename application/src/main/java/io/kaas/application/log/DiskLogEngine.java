package io.kaas.application.log;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.Pacer;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition logs in segment files under {@code <log dir>/<topic>/<partition>/}, on the
 * {@link Filesystem} port. Opening a partition runs its recovery; closing persists what the next
 * open needs to skip most of it. Each partition lives in one of the log dirs, as its placement says
 * ({@link PartitionPlacements}), and moves between them on request ({@link LogDirMoves}).
 */
public final class DiskLogEngine implements LogEngine {
    private static final Logger LOG = LoggerFactory.getLogger(DiskLogEngine.class);

    /** The book's 64 MiB between recovery checkpoints. */
    public static final long DEFAULT_CHECKPOINT_INTERVAL_BYTES = GroupCommitter.CHECKPOINT_INTERVAL_BYTES;

    private final Settings settings;
    private final Filesystem fs;
    private final JsonCodec codec;
    private final Executor io;
    private final Scheduler scheduler;
    private final Clock clock;
    private final AppendListener listener;
    private final Map<TopicPartition, DiskPartitionLog> logs = new ConcurrentHashMap<>();
    private final PartitionPlacements placements;
    private final LogDirMoves moves;
    /** Null unless {@link Settings#journal} is set. */
    private final LogJournal journal;

    /**
     * @param root              the data directory
     * @param epoch             the leader epoch {@link #open} opens partitions with ({@link #takeOver} names its own)
     * @param fsyncMaxLatencyMs an fsync slower than this stalls its partition ({@code KAAS_FSYNC_MAX_LATENCY_MS})
     * @param checkpointIntervalBytes refresh the recovery checkpoint once this many more bytes are fsynced
     *                          (the book's 64 MiB); tests lower it to exercise checkpoints with small logs
     * @param sharedVolume      other brokers may take partitions over (cluster mode): every group commit
     *                          re-reads the partition's fence before it acknowledges anything
     * @param metrics           where group commits record their fsync latency and how many appends each acknowledged
     */
    public record Settings(Path root, int epoch, long fsyncMaxLatencyMs, long checkpointIntervalBytes,
                           boolean sharedVolume, BrokerMetrics metrics, Journal journal) {

        public Settings(Path root, int epoch, long fsyncMaxLatencyMs, long checkpointIntervalBytes,
                        boolean sharedVolume, BrokerMetrics metrics) {
            this(root, epoch, fsyncMaxLatencyMs, checkpointIntervalBytes, sharedVolume, metrics, null);
        }

        public Settings(Path root, int epoch, long fsyncMaxLatencyMs, long checkpointIntervalBytes,
                        boolean sharedVolume) {
            this(root, epoch, fsyncMaxLatencyMs, checkpointIntervalBytes, sharedVolume, BrokerMetrics.unobserved());
        }

        public Settings(Path root, int epoch, long fsyncMaxLatencyMs) {
            this(root, epoch, fsyncMaxLatencyMs, DEFAULT_CHECKPOINT_INTERVAL_BYTES);
        }

        public Settings(Path root, int epoch, long fsyncMaxLatencyMs, long checkpointIntervalBytes) {
            this(root, epoch, fsyncMaxLatencyMs, checkpointIntervalBytes, false);
        }

        /** These settings with appends made durable through a write-ahead journal ({@code KAAS_LOG_JOURNAL}). */
        public Settings withJournal(Journal journal) {
            return new Settings(root, epoch, fsyncMaxLatencyMs, checkpointIntervalBytes, sharedVolume, metrics, journal);
        }
    }

    /**
     * The write-ahead journal: one fsync of one file makes every partition's pending appends durable.
     *
     * @param dir         where its files live (on the data volume)
     * @param rotateBytes a journal file this large is closed, and deleted once its partitions fsynced past it
     * @param rotateMs    a journal file holding entries this long is closed too (unless one is still retiring), so
     *                    the segments' page-cache data is fsynced a little at a time, not in one burst the kernel's
     *                    own write-back or a late retirement puts in front of the journal's fsyncs
     */
    public record Journal(Path dir, long rotateBytes, long rotateMs) {
        /** 64 MiB per journal file: at most a few such files wait for their partitions' segment fsyncs. */
        public static final long DEFAULT_ROTATE_BYTES = 64L * 1024 * 1024;
        /** A second of appends per journal file at low rates: well inside the kernel's 30 s dirty-page expiry. */
        public static final long DEFAULT_ROTATE_MS = 1_000;

        public Journal(Path dir, long rotateBytes) {
            this(dir, rotateBytes, DEFAULT_ROTATE_MS);
        }
    }

    /**
     * An engine whose one log dir is the data directory; moves between log dirs run on {@code io}.
     *
     * @param io runs fsyncs and the other slow file work; each partition uses at most one thread at a time
     */
    public DiskLogEngine(Settings settings, Filesystem fs, JsonCodec codec, Executor io, Scheduler scheduler, Clock clock,
                         AppendListener listener) {
        this(settings, LogDirectories.single(settings.root()), io, fs, codec, io, scheduler, clock, listener);
    }

    /**
     * @param dirs  the log dirs; the first, {@link LogDirectories#DEFAULT}, is {@code settings.root()}
     * @param mover runs the moves between log dirs (AlterReplicaLogDirs): long copies, off the I/O threads
     * @param io    runs fsyncs and the other slow file work; each partition uses at most one thread at a time
     */
    public DiskLogEngine(Settings settings, LogDirectories dirs, Executor mover, Filesystem fs, JsonCodec codec,
                         Executor io, Scheduler scheduler, Clock clock, AppendListener listener) {
        this.settings = settings;
        this.fs = fs;
        this.codec = codec;
        this.io = io;
        this.scheduler = scheduler;
        this.clock = clock;
        this.listener = listener;
        this.placements = new PartitionPlacements(dirs, fs, codec, settings.sharedVolume());
        this.moves = new LogDirMoves(placements, logs, this::openForMove, mover, settings.sharedVolume());
        this.journal = settings.journal() == null ? null : startJournal(settings.journal());
    }

    /** Writes a crashed run's journal back into the segments, before any partition opens, then starts afresh. */
    private LogJournal startJournal(Journal config) {
        try {
            long nextSeq = new JournalReplay(fs, codec, config.dir()).replay();
            return new LogJournal(fs, config.dir(), nextSeq, io, scheduler, clock, settings.fsyncMaxLatencyMs(),
                    config.rotateBytes(), config.rotateMs(), settings.metrics());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replay the log journal in " + config.dir() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
        return takeOver(topic, partition, config, settings.epoch());
    }

    @Override
    public PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch) {
        return logs.computeIfAbsent(partition, tp -> openPlaced(tp, config, leaderEpoch));
    }

    /** Opens a partition's log in the log dir its placement names (placing a new partition first). */
    private DiskPartitionLog openPlaced(TopicPartition tp, LogConfig config, int leaderEpoch) {
        try {
            return openFiles(placements.files(placements.resolve(tp, leaderEpoch), tp), tp, config, leaderEpoch, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the log of " + tp + ": " + e.getMessage(), e);
        }
    }

    /** A move's open, in a member it names: at exactly the epoch it led at, never a newer leader's. */
    private DiskPartitionLog openForMove(TopicPartition tp, String member, LogConfig config, int leaderEpoch)
            throws IOException {
        return openFiles(placements.files(member, tp), tp, config, leaderEpoch, true);
    }

    private DiskPartitionLog openFiles(PartitionFiles files, TopicPartition tp, LogConfig config, int leaderEpoch,
                                       boolean exactEpoch) throws IOException {
        PartitionRecovery.Recovered recovered = new PartitionRecovery(fs, codec, files, config)
                .open(leaderEpoch, exactEpoch, clock.nowMs());
        return new DiskPartitionLog(tp, files, fs, codec, io, scheduler, listener, settings, config, recovered, journal);
    }

    @Override
    public void relinquish(TopicPartition partition) {
        DiskPartitionLog log = logs.remove(partition);
        if (log != null) {
            try {
                log.close();
            } catch (IOException e) {
                LOG.error("relinquishing {} failed; its next leader recovers it from the log", partition, e);
            }
        }
    }

    @Override
    public void abandon(TopicPartition partition) {
        DiskPartitionLog log = logs.remove(partition);
        if (log != null) {
            log.abandon();
        }
    }

    @Override
    public void deletePartition(TopicPartition tp) {
        DiskPartitionLog log = logs.remove(tp);
        if (log != null) {
            log.abandon();
        }
        moves.cleanUpNow(tp);
        Path dir = placements.files(LogDirectories.DEFAULT, tp).dir();
        try {
            if (journal != null) {
                LogDirectories dirs = placements.dirs();
                for (String member : dirs.names()) {
                    journal.forget(placements.files(member, tp).dir());
                }
            }
            placements.delete(tp);
            for (String name : fs.list(dir)) {
                fs.delete(dir.resolve(name));
            }
            fs.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the log of " + tp, e);
        }
    }

    /** Closes and removes the topic's partition logs, and its directory in every other log dir. */
    @Override
    public void delete(Topic topic) {
        LogEngine.super.delete(topic);
        LogDirectories dirs = placements.dirs();
        try {
            for (String member : dirs.names().subList(1, dirs.names().size())) {
                fs.deleteTree(dirs.root(member).resolve(topic.name()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the directories of topic " + topic.name(), e);
        }
    }

    /**
     * The log cleaner of this engine's compacted logs; its passes run on the caller's thread.
     *
     * @param mapCapacity the most keys one cleaning's offset map holds
     */
    public LogCleaner cleaner(CompactionRecords records, Pacer pacer, int mapCapacity) {
        return new LogCleaner(logs::values, records, pacer, mapCapacity, clock);
    }

    @Override
    public List<LogDir> logDirs() {
        LogDirectories dirs = placements.dirs();
        return dirs.names().stream().map(dirs::root).map(this::measure).toList();
    }

    private LogDir measure(Path root) {
        try {
            Filesystem.Space space = fs.space(root);
            return new LogDir(root.toString(), space.totalBytes(), space.usableBytes());
        } catch (IOException e) {
            LOG.warn("cannot read the free space of {}", root, e);
            return new LogDir(root.toString(), LogDir.UNKNOWN, LogDir.UNKNOWN);
        }
    }

    @Override
    public Optional<String> logDirOf(TopicPartition partition) {
        return logs.containsKey(partition) ? placements.of(partition).map(placements.dirs()::path) : Optional.empty();
    }

    @Override
    public Optional<FutureLog> futureLogOf(TopicPartition partition) {
        return moves.future(partition);
    }

    @Override
    public KafkaError moveLog(TopicPartition partition, String destination, LogSwap swap) {
        return moves.request(partition, destination, swap);
    }

    @Override
    public void close() {
        boolean allDurable = true;
        for (DiskPartitionLog log : logs.values()) {
            try {
                log.close();
                allDurable &= !log.stalled();
            } catch (IOException e) {
                allDurable = false;
                LOG.error("closing {} failed; the next open recovers it from the log", log.topicPartition(), e);
            }
        }
        logs.clear();
        if (journal != null) {
            journal.close(allDurable);
        }
    }
}
