package io.kaas.bench;

import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.topic.Topic;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The storage engine's append and read paths without fsync (flush interval unbounded): what the
 * partition lock covers per produced batch, and what a consumer's fetch costs per partition.
 */
public class LogBenchmark extends BenchmarkDefaults {
    private static final int PREFILLED = 100_000;

    @Param({"disk", "memory"})
    String engine;

    private Path dir;
    private LogEngine logs;
    private PartitionLog log;
    private ByteBuffer batch;
    private long readOffset;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        // Apache's topic defaults: flush.messages unbounded, so no fsync is requested.
        LogConfig config = LogConfig.of(TopicConfig.resolve(Map.of(), Map.of()));
        if (engine.equals("disk")) {
            dir = Files.createTempDirectory("kaas-jmh");
            logs = new DiskLogEngine(new DiskLogEngine.Settings(dir, 0, 30_000), new NioFilesystem(),
                    new JacksonCodec(), Runnable::run, (task, delay) -> () -> { }, System::currentTimeMillis, tp -> { });
        } else {
            logs = new MemoryLogEngine(tp -> { });
        }
        Topic topic = new Topic("bench", UUID.randomUUID(), 1, Map.of());
        log = logs.open(topic, topic.partition(0), config);
        batch = Batches.plain(10, 100);
        for (int i = 0; i < PREFILLED; i++) {
            log.append(batch.duplicate(), 0L);
        }
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        logs.close();
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** One 10-record, ~1 KiB batch appended (offset assignment, write, index, publish). */
    @Benchmark
    public Object append() {
        return log.append(batch.duplicate(), 0L);
    }

    /** A 1 MiB fetch from a moving position in a 1M-record log. */
    @Benchmark
    public Object read() {
        readOffset = (readOffset + 7919) % (PREFILLED * 10L);
        return log.read(readOffset, 1 << 20, true);
    }

    /** A fetch at the tail: what a caught-up consumer asks for. */
    @Benchmark
    public Object readTail() {
        long end = log.offsets().highWatermark();
        return log.read(end - 10, 1 << 20, true);
    }
}
