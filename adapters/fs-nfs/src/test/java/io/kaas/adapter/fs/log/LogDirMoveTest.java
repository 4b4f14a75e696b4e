package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.fs.sim.CrashingFilesystem;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.PartitionState;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Log dirs on the simulated volume: where new partitions go and that a restart finds them there, and
 * AlterReplicaLogDirs' move: everything appended before, during and after it reads back once, from the
 * target; a crash at any file step of it leaves the partition whole in exactly one of the two dirs.
 */
class LogDirMoveTest {
    private static final Path BULK = Path.of("/vols/bulk");
    private static final Topic TOPIC = EngineFixture.topic("t", 4, Map.of("segment.bytes", "1000"));
    private static final TopicPartition P0 = TOPIC.partition(0);

    private final Random random = new Random(7);
    private EngineFixture fixture = fixture();

    /** Log dirs as the broker starts them: every member's directory there. */
    private static EngineFixture fixture() {
        EngineFixture f = new EngineFixture();
        f.logDirs = LogDirectories.of(EngineFixture.ROOT, Map.of("bulk", BULK));
        try {
            f.sim.createDirectories(EngineFixture.ROOT);
            f.sim.createDirectories(BULK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    @Test
    void newPartitionsGoToTheDirWithTheFewestPartitionsAndARestartFindsThemThere() {
        for (int p = 0; p < 4; p++) {
            fixture.open(TOPIC, p);
        }
        assertThat(dirsOfPartitions()).containsExactly("/data", "/vols/bulk", "/data", "/vols/bulk");
        List<byte[]> written = appendBatches(fixture.open(TOPIC, 1), 6);

        fixture.close();

        PartitionLog reopened = fixture.open(TOPIC, 1);
        assertThat(dirsOfPartitions()).containsExactly(null, "/vols/bulk", null, null);
        assertThat(readAll(reopened, 0)).hasSameSizeAs(written);
        assertThat(segmentsIn(BULK, P0.topic(), 1)).isNotEmpty();
    }

    @Test
    void aPartitionFromBeforeLogDirsStaysInTheDataDirectory() {
        EngineFixture single = new EngineFixture();
        List<byte[]> written = appendBatches(single.open(TOPIC, 0), 3);
        single.close();
        single.logDirs = LogDirectories.of(EngineFixture.ROOT, Map.of("bulk", BULK));

        PartitionLog log = single.open(TOPIC, 0);

        assertThat(single.engine().logDirOf(P0)).contains("/data");
        assertThat(readAll(log, 0)).hasSameSizeAs(written);
    }

    @Test
    void onAClustersSharedVolumeEachPartitionOpensWhereItsRecordSaysAndNoneIsPlacedByTheBroker() throws IOException {
        fixture.sharedVolume = true;
        for (int p = 0; p < 4; p++) { // what the operator wrote: 1 and 3 on bulk, 0 on default, 2 from before the pool
            Path anchor = EngineFixture.ROOT.resolve("t").resolve(Integer.toString(p));
            fixture.sim.createDirectories(anchor);
            if (p != 2) {
                fixture.sim.writeAtomically(anchor.resolve("log-dir.json"), fixture.codec.encode(
                        PartitionState.Placement.created(p % 2 == 1 ? "bulk" : "default")));
            }
            if (p % 2 == 1) {
                fixture.sim.createDirectories(BULK.resolve("t").resolve(Integer.toString(p)));
            }
        }

        for (int p = 0; p < 4; p++) {
            fixture.open(TOPIC, p);
        }
        List<byte[]> written = appendBatches(fixture.open(TOPIC, 3), 4);

        assertThat(dirsOfPartitions()).containsExactly("/data", "/vols/bulk", "/data", "/vols/bulk");
        assertThat(fixture.sim.exists(EngineFixture.ROOT.resolve("t/2/log-dir.json"))).as("no record of the broker's")
                .isFalse();
        fixture.close();
        assertThat(segmentsIn(BULK, "t", 3)).isNotEmpty();
        assertThat(segmentsIn(EngineFixture.ROOT, "t", 3)).isEmpty();
        assertThat(readAll(fixture.open(TOPIC, 3), 0)).hasSameSizeAs(written);

        ServedLog served = new ServedLog(fixture.open(TOPIC, 0));
        assertThat(fixture.engine().moveLog(TOPIC.partition(0), "/vols/bulk", served)).isEqualTo(KafkaError.NONE);
        fixture.mover.runAll();
        assertThat(fixture.engine().logDirOf(P0)).as("moved by its leader").contains("/vols/bulk");
        assertThat(fixture.file(TOPIC, 0, PartitionState.Placement.file(0))).as("the switch, at the leader's epoch")
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8)).hasValueSatisfying(record ->
                        assertThat(record).contains("\"bulk\"").contains("\"moved\" : true"));
        assertThat(fixture.file(TOPIC, 0, PartitionState.Placement.FILE)).as("the operator's record stays")
                .isPresent();
        assertThat(fixture.engine().moveLog(TOPIC.partition(2), "/vols/bulk", new ServedLog(null)))
                .as("not open here: led elsewhere, and no preference kept").isEqualTo(KafkaError.REPLICA_NOT_AVAILABLE);
    }

    @Test
    void aPlacementOnADirNoLongerConfiguredRefusesToOpenTheLog() {
        fixture.open(TOPIC, 0);
        fixture.open(TOPIC, 1); // placed on bulk
        fixture.close();
        fixture.logDirs = LogDirectories.single(EngineFixture.ROOT);

        assertThatThrownBy(() -> fixture.open(TOPIC, 1)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("t-1 is placed on log dir 'bulk', which this broker's log dirs (KAAS_LOG_DIRS,"
                        + " KAAS_VOLUME_POOL) do not name");
    }

    @Test
    void aMoveCopiesTheLogAndServesItFromTheTargetWithNothingLostOrRepeated() {
        ServedLog served = new ServedLog(fixture.open(TOPIC, 0));
        List<byte[]> written = appendBatches(served.log.get(), 10);

        assertThat(fixture.engine().moveLog(P0, "/vols/bulk", served)).isEqualTo(KafkaError.NONE);
        written.addAll(appendBatches(served.log.get(), 2)); // appends go on until the switch
        fixture.mover.runAll();

        assertThat(fixture.engine().logDirOf(P0)).contains("/vols/bulk");
        written.addAll(appendBatches(served.log.get(), 3));
        assertThat(readAll(served.log.get(), 0)).extracting(LogDirMoveTest::body)
                .containsExactlyElementsOf(written.stream().map(LogDirMoveTest::body).toList());

        fixture.scheduler.advance(fileDeleteDelayMs());
        fixture.mover.runAll();
        assertThat(segmentsIn(EngineFixture.ROOT, "t", 0)).as("the source's files are removed").isEmpty();
        assertThat(fixture.file(TOPIC, 0, "log-dir-move.json")).isEmpty();

        fixture.close();
        assertThat(readAll(fixture.open(TOPIC, 0), 0)).hasSameSizeAs(written);
        assertThat(fixture.engine().logDirOf(P0)).contains("/vols/bulk");
    }

    @Test
    void theAnswersOfAlterReplicaLogDirs() throws IOException {
        ServedLog served = new ServedLog(fixture.open(TOPIC, 0));
        DiskLogEngine engine = fixture.engine();

        assertThat(engine.moveLog(P0, "/vols/nowhere", served)).isEqualTo(KafkaError.LOG_DIR_NOT_FOUND);
        assertThat(engine.moveLog(P0, "/data", served)).as("there already").isEqualTo(KafkaError.NONE);
        assertThat(engine.moveLog(TOPIC.partition(3), "/vols/bulk", served))
                .isEqualTo(KafkaError.REPLICA_NOT_AVAILABLE);
        fixture.mover.runAll();
        assertThat(engine.logDirOf(P0)).contains("/data");

        fixture.sim.delete(BULK); // unmounted: offline
        assertThat(engine.moveLog(P0, "/vols/bulk", served)).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
        fixture.sim.createDirectories(BULK);

        fixture.open(TOPIC, 1); // the fewest-partitions rule would choose bulk...
        fixture.open(TOPIC, 2); // ...and then the data directory
        fixture.open(TOPIC, 3); // but an AlterReplicaLogDirs before it existed asked for bulk
        assertThat(engine.logDirOf(TOPIC.partition(3))).contains("/vols/bulk");
    }

    @Test
    void aCrashAtAnyFileStepOfAMoveLeavesThePartitionWholeInOneDir() throws IOException {
        for (int crashAt = 1; ; crashAt++) {
            fixture = fixture();
            CrashingFilesystem crashing = new CrashingFilesystem(fixture.fs, crashAt);
            fixture.engineFs = crashing;
            ServedLog served = new ServedLog(fixture.open(TOPIC, 0));
            List<byte[]> written = appendBatches(served.log.get(), 8);
            crashing.arm();
            boolean finished = false;
            try {
                fixture.engine().moveLog(P0, "/vols/bulk", served);
                fixture.mover.runAll();
                fixture.scheduler.advance(fileDeleteDelayMs());
                fixture.mover.runAll();
                finished = !crashing.crashed();
            } catch (CrashingFilesystem.Crash expected) {
                // the process died mid-move
            }
            fixture.crash();
            fixture.engineFs = null;

            PartitionLog recovered = fixture.open(TOPIC, 0);
            String step = "crash at file step " + crashAt;
            assertThat(readAll(recovered, 0)).as(step).extracting(LogDirMoveTest::body)
                    .containsExactlyElementsOf(written.stream().map(LogDirMoveTest::body).toList());
            boolean inBulk = fixture.engine().logDirOf(P0).orElseThrow().equals("/vols/bulk");
            assertThat(segmentsIn(inBulk ? EngineFixture.ROOT : BULK, "t", 0)).as(step + ": the other dir's copy")
                    .isEmpty();
            assertThat(fixture.file(TOPIC, 0, "log-dir-move.json")).as(step).isEmpty();
            if (finished) {
                assertThat(inBulk).isTrue();
                assertThat(crashAt).as("file steps a move takes").isGreaterThan(20);
                return;
            }
        }
    }

    private List<byte[]> appendBatches(PartitionLog log, int count) {
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] batch = batch(2, 200, fixture.clock.nowMs(), random);
            append(log, batch, fixture.clock.nowMs());
            written.add(batch);
            fixture.commit();
        }
        return written;
    }

    /** A batch's bytes past the header fields the log rewrites (base offset, leader epoch): what was produced. */
    private static String body(byte[] batch) {
        return new String(batch, 16, batch.length - 16, StandardCharsets.ISO_8859_1);
    }

    private long fileDeleteDelayMs() {
        return fixture.config(TOPIC.configs()).fileDeleteDelayMs();
    }

    private List<String> dirsOfPartitions() {
        List<String> dirs = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            dirs.add(fixture.engine().logDirOf(TOPIC.partition(p)).orElse(null));
        }
        return dirs;
    }

    private List<SegmentName> segmentsIn(Path root, String topic, int partition) {
        try {
            List<SegmentName> names = new ArrayList<>();
            for (String name : fixture.sim.list(root.resolve(topic).resolve(Integer.toString(partition)))) {
                SegmentName.parseLogFile(name).ifPresent(names::add);
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
