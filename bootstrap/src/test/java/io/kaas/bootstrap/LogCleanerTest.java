package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.sim.CrashingFilesystem;
import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.adapter.wire.codec.KafkaCompactionRecords;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Pacer;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;

/**
 * The log cleaner of a disk engine on the simulated volume, with kafka-clients' real batches and
 * rewriter: it keeps the latest record of each key with its offset, leaves the active segment
 * alone, and a crash at any file step of a cleaning leaves a log that recovery opens with every
 * key's latest value and offsets rising.
 */
class LogCleanerTest {
    private static final Path ROOT = Path.of("/data");
    private static final int KEYS = 5;
    private final ManualClock clock = new ManualClock();
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final QueuedExecutor io = new QueuedExecutor();
    private final Topic topic = new Topic("compacted", new UUID(1, 2), 1, Map.of("cleanup.policy", "compact",
            "segment.bytes", "1024", "min.cleanable.dirty.ratio", "0.01", "flush.messages", "1"));
    private final LogConfig config = LogConfig.of(TopicConfig.resolve(Map.of(), topic.configs()));

    @Test
    void cleaningKeepsTheLatestRecordOfEachKeyAtItsOffset() throws Exception {
        SimulatedFilesystem sim = new SimulatedFilesystem(1);
        DiskLogEngine engine = engine(sim);
        PartitionLog log = engine.open(topic, topic.partition(0), config);
        Map<String, Long> latest = write(log, 40);

        int cleaned = engine.cleaner(new KafkaCompactionRecords(), Pacer.UNLIMITED, 1000).cleanDueLogs();

        assertThat(cleaned).isEqualTo(1);
        List<Record> records = readAll(log);
        assertThat(latestOffsets(records)).isEqualTo(latest);
        assertThat(records.stream().filter(r -> r.offset() < activeBase(records, latest)).count())
                .as("closed segments hold one record per key at most").isLessThanOrEqualTo(KEYS);
        assertThat(records).extracting(Record::offset).isSorted();
        engine.close();
    }

    @Test
    void readsFromAnyOffsetOfACleanedSegmentFindTheNextSurvivingBatch() throws Exception {
        SimulatedFilesystem sim = new SimulatedFilesystem(1);
        DiskLogEngine engine = engine(sim);
        PartitionLog log = engine.open(topic, topic.partition(0), config);
        Map<String, Long> latest = writeWithGaps(log, 40);

        assertThat(engine.cleaner(new KafkaCompactionRecords(), Pacer.UNLIMITED, 1000).cleanDueLogs()).isEqualTo(1);

        List<Record> records = readAll(log);
        assertThat(latestOffsets(records)).isEqualTo(latest);
        long gaps = 0;
        for (int i = 1; i < records.size(); i++) {
            gaps += records.get(i).offset() - records.get(i - 1).offset() - 1;
        }
        assertThat(gaps).as("offsets the cleaning removed").isPositive();
        for (long offset = log.offsets().logStartOffset(); offset < log.offsets().highWatermark(); offset++) {
            ByteBuffer bytes = log.read(offset, 1 << 20, true).records().toByteBuffer();
            MutableRecordBatch first = MemoryRecords.readableRecords(bytes).batches().iterator().next();
            long from = offset;
            long expected = records.stream().mapToLong(Record::offset).filter(o -> o >= from).min().orElseThrow();
            assertThat(first.lastOffset()).as("the first batch of a read at %d", offset).isGreaterThanOrEqualTo(offset);
            assertThat(first.iterator().next().offset()).as("the first record of a read at %d", offset)
                    .isLessThanOrEqualTo(expected);
        }
        engine.close();
    }

    @Test
    void aCrashAtAnyStepOfACleaningLeavesAConsistentLog() throws Exception {
        crashEveryStep(false);
    }

    @Test
    void aCrashAtAnyStepOfACleaningOverCleanedSegmentsWithGapsLeavesAConsistentLog() throws Exception {
        crashEveryStep(true);
    }

    /**
     * Crashes a cleaning at its first, second, ... file step until one completes. With {@code overGaps}, the log
     * was cleaned once already (its segments have gaps) and got more updates, which the crashing cleaning
     * regroups with the cleaned segments.
     */
    private void crashEveryStep(boolean overGaps) throws Exception {
        for (int crashAt = 1; ; crashAt++) {
            SimulatedFilesystem sim = new SimulatedFilesystem(crashAt);
            DiskLogEngine engine = engine(sim);
            PartitionLog log = engine.open(topic, topic.partition(0), config);
            Map<String, Long> latest;
            if (overGaps) {
                latest = writeWithGaps(log, 40);
                assertThat(engine.cleaner(new KafkaCompactionRecords(), Pacer.UNLIMITED, 1000).cleanDueLogs()).isEqualTo(1);
                latest.putAll(writeWithGaps(log, 20));
            } else {
                latest = write(log, 40);
            }
            long end = log.offsets().highWatermark();
            CrashingFilesystem crashing = new CrashingFilesystem(sim, crashAt);
            DiskLogEngine cleaning = engine(crashing);
            // the cleaning process opens the same (closed) log through the crashing volume
            engine.close();
            cleaning.open(topic, topic.partition(0), config);
            crashing.arm();
            boolean crashed;
            try {
                cleaning.cleaner(new KafkaCompactionRecords(), Pacer.UNLIMITED, 1000).cleanDueLogs();
                crashed = crashing.crashed();
            } catch (CrashingFilesystem.Crash c) {
                crashed = true;
            }
            if (crashed) {
                sim.crash();
            }
            DiskLogEngine recovered = engine(sim);
            PartitionLog after = recovered.open(topic, topic.partition(0), config);
            List<Record> records = readAll(after);
            assertThat(latestOffsets(records)).as("crash at file step " + crashAt).isEqualTo(latest);
            assertThat(records).extracting(Record::offset).as("crash at file step " + crashAt).isSorted()
                    .doesNotHaveDuplicates();
            assertThat(after.offsets().highWatermark()).isEqualTo(end);
            recovered.close();
            if (!crashed) {
                assertThat(crashAt).as("steps a cleaning takes").isGreaterThan(10);
                return;
            }
        }
    }

    private DiskLogEngine engine(Filesystem fs) {
        return new DiskLogEngine(new DiskLogEngine.Settings(ROOT, 0, 30_000), fs, new JacksonCodec(), io, scheduler,
                clock, append -> { });
    }

    /** {@code rounds} updates of every key, one batch of all keys per round; the latest offset of each key. */
    private Map<String, Long> write(PartitionLog log, int rounds) {
        Map<String, Long> latest = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            List<String> keys = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                keys.add("key-" + k);
            }
            append(log, keys, "value-" + round, latest);
            clock.advance(10);
        }
        return latest;
    }

    /**
     * {@code rounds} updates of every key, a batch per record, and after each round a batch with a key of
     * its own: that one survives a cleaning between updates that do not, so cleaned segments have gaps.
     */
    private Map<String, Long> writeWithGaps(PartitionLog log, int rounds) {
        Map<String, Long> latest = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < KEYS; k++) {
                append(log, List.of("key-" + k), "value-" + round, latest);
            }
            append(log, List.of("round-" + round), "once", latest);
            clock.advance(10);
        }
        return latest;
    }

    /** One batch of {@code keys}, each with {@code value}; notes each key's offset in {@code latest}. */
    private void append(PartitionLog log, List<String> keys, String value, Map<String, Long> latest) {
        SimpleRecord[] records = keys.stream()
                .map(key -> new SimpleRecord(clock.nowMs(), bytes(key), bytes(value + "-" + "x".repeat(30))))
                .toArray(SimpleRecord[]::new);
        var result = log.append(MemoryRecords.withRecords(CompressionType.NONE, records).buffer(), clock.nowMs());
        long base = ((io.kaas.application.log.AppendResult.Appended) result).baseOffset();
        for (int k = 0; k < keys.size(); k++) {
            latest.put(keys.get(k), base + k);
        }
        io.runAll();
    }

    private static List<Record> readAll(PartitionLog log) {
        List<Record> out = new ArrayList<>();
        long next = log.offsets().logStartOffset();
        while (next < log.offsets().highWatermark()) {
            LogRead read = log.read(next, 1 << 20, true);
            assertThat(read.error()).isEqualTo(KafkaError.NONE);
            ByteBuffer bytes = read.records().toByteBuffer();
            assertThat(bytes.remaining()).as("a read at " + next + " below the high watermark").isPositive();
            for (MutableRecordBatch batch : MemoryRecords.readableRecords(bytes).batches()) {
                batch.forEach(out::add);
                next = batch.nextOffset();
            }
        }
        return out;
    }

    /** The offset of each key's last record. */
    private static Map<String, Long> latestOffsets(List<Record> records) {
        Map<String, Long> latest = new LinkedHashMap<>();
        for (Record r : records) {
            latest.put(StandardCharsets.UTF_8.decode(r.key()).toString(), r.offset());
        }
        return latest;
    }

    /** Records at or past the earliest latest-offset may all be in the active segment. */
    private static long activeBase(List<Record> records, Map<String, Long> latest) {
        return latest.values().stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
