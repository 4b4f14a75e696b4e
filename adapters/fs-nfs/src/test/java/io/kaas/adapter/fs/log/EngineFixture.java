package io.kaas.adapter.fs.log;

import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.sim.SimOptions;
import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.log.AppendListener;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Filesystem;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A {@link DiskLogEngine} on the simulated filesystem with the manual clock and scheduler, an I/O
 * executor the test runs by hand, and the real JSON codec. One "process" at a time: {@link #restart}
 * closes cleanly, {@link #kill} drops the process without closing (its bytes stay in the page
 * cache), {@link #crash} also loses everything not fsynced.
 */
final class EngineFixture {
    static final Path ROOT = Path.of("/data");
    static final long FSYNC_MAX_LATENCY_MS = 30_000;

    final ManualClock clock = new ManualClock();
    final ManualScheduler scheduler = new ManualScheduler(clock);
    final SimulatedFilesystem sim;
    final InstrumentedFilesystem fs;
    final JacksonCodec codec = new JacksonCodec();
    Executor io;
    final ManualExecutor manualIo = new ManualExecutor();
    /** The broker's defaults for topic-level keys (kaas fsyncs every append unless a topic says otherwise). */
    final Map<String, String> defaults = new HashMap<>(Map.of("flush.messages", "1"));
    long checkpointIntervalBytes = 64L * 1024 * 1024;
    /** Hears the appends of the logs the engine opens from now on. */
    AppendListener listener = append -> { };
    int epoch;
    /** A cluster's shared volume: the operator places partitions, the engine only opens them where recorded. */
    boolean sharedVolume;
    /** The log dirs; null for the data directory alone. */
    LogDirectories logDirs;
    /** Runs moves between log dirs (the test runs it by hand). */
    final ManualExecutor mover = new ManualExecutor();
    /** The write-ahead journal the engine makes appends durable through; null for per-partition fsyncs. */
    DiskLogEngine.Journal journal;
    /** The volume the engine sees: the simulation, as instrumented, unless a test puts something in between. */
    Filesystem engineFs;
    private DiskLogEngine engine;

    EngineFixture() {
        this(1, SimOptions.reliable());
    }

    EngineFixture(long seed, SimOptions options) {
        sim = new SimulatedFilesystem(seed, options, clock::nowMs);
        fs = new InstrumentedFilesystem(sim);
        io = manualIo;
    }

    /** Appends made durable through a journal in {@code /data/__cluster/journal}, rotated every {@code rotateBytes}. */
    void useJournal(long rotateBytes) {
        journal = new DiskLogEngine.Journal(ROOT.resolve("__cluster").resolve("journal"), rotateBytes);
    }

    static Topic topic(String name, int partitions, Map<String, String> configs) {
        return new Topic(name, new UUID(7, name.hashCode()), partitions, configs);
    }

    DiskLogEngine engine() {
        if (engine == null) {
            DiskLogEngine.Settings settings = new DiskLogEngine.Settings(ROOT, epoch, FSYNC_MAX_LATENCY_MS,
                    checkpointIntervalBytes, sharedVolume).withJournal(journal);
            Filesystem volume = engineFs == null ? fs : engineFs;
            engine = logDirs == null
                    ? new DiskLogEngine(settings, volume, codec, io, scheduler, clock, listener)
                    : new DiskLogEngine(settings, logDirs, mover, volume, codec, io, scheduler, clock, listener);
        }
        return engine;
    }

    PartitionLog open(Topic topic, int partition) {
        return engine().open(topic, topic.partition(partition), config(topic.configs()));
    }

    /** The storage settings of a topic with these overrides on this fixture's broker defaults. */
    LogConfig config(Map<String, String> overrides) {
        return LogConfig.of(TopicConfig.resolve(defaults, overrides));
    }

    /** Runs the committer (and whatever else is queued on the I/O executor). */
    void commit() {
        manualIo.runAll();
    }

    /** Clean shutdown of the process. */
    void close() {
        if (engine != null) {
            commit();
            engine.close();
            engine = null;
        }
    }

    /** The broker process dies: nothing more runs, nothing is closed; the OS keeps what it wrote. */
    void kill() {
        manualIo.drop();
        mover.drop();
        engine = null;
    }

    /** Power loss: the process dies and the volume keeps only what was fsynced. */
    void crash() {
        kill();
        sim.crash();
    }

    Path dir(Topic topic, int partition) {
        return ROOT.resolve(topic.name()).resolve(Integer.toString(partition));
    }

    /** The segment log files of a partition, in directory (= offset) order. */
    List<SegmentName> segments(Topic topic, int partition) {
        List<SegmentName> out = new ArrayList<>();
        try {
            for (String name : sim.list(dir(topic, partition))) {
                SegmentName.parseLogFile(name).ifPresent(out::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(null);
        return out;
    }

    Optional<byte[]> file(Topic topic, int partition, String name) {
        try {
            return sim.readAll(dir(topic, partition).resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- appends and reads ----

    /** Appends and expects success; the base offset. */
    static long append(PartitionLog log, byte[] batch, long nowMs) {
        AppendResult result = log.append(ByteBuffer.wrap(batch.clone()), nowMs);
        if (result instanceof AppendResult.Appended appended) {
            return appended.baseOffset();
        }
        throw new AssertionError("expected the append to succeed: " + result);
    }

    /** Appends and returns the durable future (for acks=-1). */
    static CompletableFuture<Void> appendDurable(PartitionLog log, byte[] batch, long nowMs) {
        AppendResult result = log.append(ByteBuffer.wrap(batch.clone()), nowMs);
        if (result instanceof AppendResult.Appended appended) {
            return appended.durable().toCompletableFuture();
        }
        throw new AssertionError("expected the append to succeed: " + result);
    }

    /** Every batch from {@code from} to the high watermark, reading as a consumer does. */
    static List<byte[]> readAll(PartitionLog log, long from) {
        List<byte[]> out = new ArrayList<>();
        long next = from;
        while (next < log.offsets().highWatermark()) {
            LogRead read = log.read(next, 64 * 1024, true);
            if (read.error() != KafkaError.NONE) {
                throw new AssertionError("read at " + next + " failed: " + read.error());
            }
            List<byte[]> batches = Batches.split(read.records().toByteBuffer());
            if (batches.isEmpty()) {
                throw new AssertionError("read at " + next + " below the high watermark "
                        + log.offsets().highWatermark() + " returned nothing");
            }
            out.addAll(batches);
            next = Batches.header(batches.get(batches.size() - 1)).lastOffset() + 1;
        }
        return out;
    }
}
