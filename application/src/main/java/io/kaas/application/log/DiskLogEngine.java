package io.kaas.application.log;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.Pacer;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition logs in segment files under {@code <data>/<topic>/<partition>/}, on the
 * {@link Filesystem} port. Opening a partition runs its recovery; closing persists what the next
 * open needs to skip most of it.
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
                           boolean sharedVolume, BrokerMetrics metrics) {

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
    }

    /**
     * @param io runs fsyncs and the other slow file work; each partition uses at most one thread at a time
     */
    public DiskLogEngine(Settings settings, Filesystem fs, JsonCodec codec, Executor io, Scheduler scheduler, Clock clock,
                         AppendListener listener) {
        this.settings = settings;
        this.fs = fs;
        this.codec = codec;
        this.io = io;
        this.scheduler = scheduler;
        this.clock = clock;
        this.listener = listener;
    }

    @Override
    public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
        return takeOver(topic, partition, config, settings.epoch());
    }

    @Override
    public PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch) {
        return logs.computeIfAbsent(partition, tp -> {
            PartitionFiles files = PartitionFiles.of(settings.root(), tp);
            try {
                PartitionRecovery.Recovered recovered = new PartitionRecovery(fs, codec, files, config)
                        .open(leaderEpoch, clock.nowMs());
                return new DiskPartitionLog(tp, files, fs, codec, io, scheduler, listener, settings, config, recovered);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the log of " + tp, e);
            }
        });
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
        Path dir = PartitionFiles.of(settings.root(), tp).dir();
        try {
            for (String name : fs.list(dir)) {
                fs.delete(dir.resolve(name));
            }
            fs.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the log of " + tp, e);
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
    public LogDir logDir() {
        Path root = settings.root().toAbsolutePath();
        try {
            Filesystem.Space space = fs.space(root);
            return new LogDir(root.toString(), space.totalBytes(), space.usableBytes());
        } catch (IOException e) {
            LOG.warn("cannot read the free space of {}", root, e);
            return new LogDir(root.toString(), LogDir.UNKNOWN, LogDir.UNKNOWN);
        }
    }

    @Override
    public void close() {
        for (DiskPartitionLog log : logs.values()) {
            try {
                log.close();
            } catch (IOException e) {
                LOG.error("closing {} failed; the next open recovers it from the log", log.topicPartition(), e);
            }
        }
        logs.clear();
    }
}
