package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The disk engine on the simulated volume, for what topic configs change at run time: retention
 * after a lowered {@code retention.ms}, {@code cleanup.policy}, {@code flush.ms}, partition sizes,
 * the volume's space and removing one partition.
 */
class DiskLogEngineConfigTest {
    private static final Path ROOT = Path.of("/data");
    private static final Topic TOPIC = new Topic("orders", new UUID(1, 2), 2, Map.of());
    private static final TopicPartition P0 = TOPIC.partition(0);

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final SimulatedFilesystem fs = new SimulatedFilesystem(11);
    private final DiskLogEngine engine = new DiskLogEngine(new DiskLogEngine.Settings(ROOT, 1, 30_000), fs,
            new JacksonCodec(), Runnable::run, scheduler, clock, tp -> { });

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void loweringRetentionReclaimsClosedSegmentsAtTheNextSweep() throws IOException {
        PartitionLog log = engine.open(TOPIC, P0, config(200, 604_800_000L, true, Long.MAX_VALUE));
        for (int i = 0; i < 6; i++) {
            append(log, 100, clock.nowMs());
        }
        int segmentsBefore = segmentFiles();
        clock.advance(10_000);
        log.applyRetention(clock.nowMs());
        assertThat(log.offsets().logStartOffset()).as("a week of retention keeps everything").isZero();

        log.updateConfig(config(200, 5_000, true, Long.MAX_VALUE));
        log.applyRetention(clock.nowMs());

        assertThat(log.offsets().logStartOffset()).isPositive();
        assertThat(segmentFiles()).isLessThan(segmentsBefore);
        assertThat(segmentFiles()).as("the active segment stays").isPositive();
    }

    @Test
    void aCompactOnlyTopicKeepsItsSegments() {
        PartitionLog log = engine.open(TOPIC, P0, config(200, 1, false, Long.MAX_VALUE));
        for (int i = 0; i < 4; i++) {
            append(log, 100, clock.nowMs());
        }
        clock.advance(10_000);

        log.applyRetention(clock.nowMs());

        assertThat(log.offsets().logStartOffset()).isZero();
    }

    @Test
    void flushMsForcesAnFsyncOnTheFirstAppendAfterItPasses() {
        PartitionLog log = engine.open(TOPIC, P0, config(1 << 20, 604_800_000L, true, 1_000));
        long flushesBefore = fs.fsyncCount();
        AppendResult.Appended first = append(log, 10, clock.nowMs());
        assertThat(first.durable().toCompletableFuture()).as("no flush due yet").isCompleted();
        long afterFirst = fs.fsyncCount();
        assertThat(afterFirst).isEqualTo(flushesBefore);

        clock.advance(1_000);
        append(log, 10, clock.nowMs());

        assertThat(fs.fsyncCount()).isGreaterThan(afterFirst);
    }

    @Test
    void aPartitionsSizeIsTheSumOfItsSegmentFiles() throws IOException {
        PartitionLog log = engine.open(TOPIC, P0, config(300, 604_800_000L, true, Long.MAX_VALUE));
        long written = 0;
        for (int i = 0; i < 5; i++) {
            written += append(log, 120, clock.nowMs()).baseOffset() >= 0 ? batchSize(120) : 0;
        }

        assertThat(log.sizeInBytes()).isEqualTo(written);
        long onDisk = 0;
        Path dir = ROOT.resolve("orders").resolve("0");
        for (String name : fs.list(dir)) {
            if (name.endsWith(".log")) {
                onDisk += fs.readAll(dir.resolve(name)).orElseThrow().length;
            }
        }
        assertThat(onDisk).isEqualTo(written);
    }

    @Test
    void theLogDirIsTheDataDirectoryWithItsVolumesSpace() {
        fs.setCapacityBytes(1_000_000);
        PartitionLog log = engine.open(TOPIC, P0, config(1 << 20, 604_800_000L, true, Long.MAX_VALUE));
        append(log, 500, clock.nowMs());

        LogEngine.LogDir dir = engine.logDirs().get(0);

        assertThat(engine.logDirs()).hasSize(1);
        assertThat(engine.logDirOf(P0)).contains(ROOT.toAbsolutePath().toString());
        assertThat(dir.path()).isEqualTo(ROOT.toAbsolutePath().toString());
        assertThat(dir.totalBytes()).isEqualTo(1_000_000);
        assertThat(dir.usableBytes()).isLessThan(1_000_000).isGreaterThan(0);
    }

    @Test
    void deletingOnePartitionRemovesItsDirectoryOnly() throws IOException {
        engine.open(TOPIC, P0, LogConfig.DEFAULTS);
        engine.open(TOPIC, TOPIC.partition(1), LogConfig.DEFAULTS);

        engine.deletePartition(TOPIC.partition(1));

        assertThat(fs.list(ROOT.resolve("orders"))).containsExactly("0");
    }

    private static LogConfig config(int segmentBytes, long retentionMs, boolean delete, long flushMs) {
        LogConfig d = LogConfig.DEFAULTS;
        return new LogConfig(segmentBytes, d.segmentMs(), retentionMs, -1, Long.MAX_VALUE, flushMs, d.indexIntervalBytes(),
                delete, d.fileDeleteDelayMs());
    }

    private AppendResult.Appended append(PartitionLog log, int recordBytes, long timestamp) {
        ByteBuffer batch = TestBatches.batch(1, timestamp, timestamp, TestBatches.records(recordBytes));
        AppendResult result = log.append(batch, clock.nowMs());
        assertThat(result).isInstanceOf(AppendResult.Appended.class);
        return (AppendResult.Appended) result;
    }

    private static int batchSize(int recordBytes) {
        return TestBatches.batch(1, 0, 0, TestBatches.records(recordBytes)).remaining();
    }

    private int segmentFiles() throws IOException {
        return (int) fs.list(ROOT.resolve("orders").resolve("0")).stream().filter(n -> n.endsWith(".log")).count();
    }
}
