package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.sim.ForwardingFilesystem;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.PartitionState;
import io.kaas.application.port.out.Filesystem;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A move between log dirs on a cluster's shared volume, with another broker taking the partition over mid-move: the
 * leader at epoch 1 moves it from the data directory to {@code bulk} while the broker at epoch 2 takes it over before
 * each of the mover's file calls in turn (and once after the move). Whatever the step, every acknowledged batch reads
 * back once, in order, from the log the next leader opens, and the partition's files end up in exactly one dir.
 */
class LogDirMoveTakeoverTest {
    private static final Path BULK = Path.of("/vols/bulk");
    private static final Topic TOPIC = EngineFixture.topic("t", 1, Map.of("segment.bytes", "1000"));
    private static final TopicPartition P0 = TOPIC.partition(0);

    private final Random random = new Random(11);

    @Test
    void aTakeoverAtAnyStepOfAMoveLosesNothingAcknowledgedAndLeavesOneCopy() throws IOException {
        for (int takeoverAt = 1; ; takeoverAt++) {
            Run run = new Run(takeoverAt);
            boolean duringTheMove = run.moveWithATakeover();
            run.checkEverythingAcknowledgedIsReadOnceFromOneDir("takeover before the mover's file call " + takeoverAt);
            if (!duringTheMove) {
                assertThat(takeoverAt).as("file calls a move makes").isGreaterThan(30);
                return;
            }
        }
    }

    @Test
    void aDeposedLeadersSwitchLosesToTheTakeoversRecord() throws IOException {
        Run run = new Run(Integer.MAX_VALUE);
        run.brokerB.takeOver(TOPIC, P0, run.config(), 2);
        Path anchor = EngineFixture.ROOT.resolve("t/0");
        // what the deposed leader's switch writes late: its epoch's record naming the target
        run.f.sim.writeAtomically(anchor.resolve(PartitionState.Placement.file(1)),
                run.f.codec.encode(PartitionState.Placement.moved("bulk")));
        run.brokerB.relinquish(P0);

        DiskLogEngine next = run.engine(run.f.fs, new ManualExecutor(), new ManualExecutor(), 3);
        next.takeOver(TOPIC, P0, run.config(), 3);

        assertThat(next.logDirOf(P0)).contains("/data");
        assertThat(run.f.sim.list(anchor)).as("the records below the newest leader's are pruned")
                .contains(PartitionState.Placement.FILE, PartitionState.Placement.file(3))
                .doesNotContain(PartitionState.Placement.file(1), PartitionState.Placement.file(2));
    }

    /** One broker moving the partition (A, epoch 1) and one taking it over (B, epoch 2), on one simulated volume. */
    private final class Run {
        final EngineFixture f = new EngineFixture();
        final ManualExecutor aIo = new ManualExecutor();
        final ManualExecutor aMover = new ManualExecutor();
        final ManualExecutor bIo = new ManualExecutor();
        final DiskLogEngine brokerA;
        final DiskLogEngine brokerB;
        final ServedLog servedByA;
        final List<byte[]> acknowledged = new ArrayList<>();
        private final int takeoverAt;
        private int calls;
        private boolean armed;
        private PartitionLog servedByB;

        Run(int takeoverAt) throws IOException {
            this.takeoverAt = takeoverAt;
            f.sim.createDirectories(BULK);
            Path anchor = EngineFixture.ROOT.resolve("t/0");
            f.sim.createDirectories(anchor); // as the operator creates it: the data directory, recorded
            f.sim.writeAtomically(anchor.resolve(PartitionState.Placement.FILE),
                    f.codec.encode(PartitionState.Placement.created(LogDirectories.DEFAULT)));
            Filesystem seenByA = new ForwardingFilesystem(f.fs) {
                @Override
                protected void beforeEachCall() {
                    if (armed && ++calls == Run.this.takeoverAt) {
                        takeOverByB();
                    }
                }
            };
            brokerA = engine(seenByA, aIo, aMover, 1);
            brokerB = engine(f.fs, bIo, new ManualExecutor(), 2);
            servedByA = new ServedLog(brokerA.takeOver(TOPIC, P0, config(), 1));
            for (int i = 0; i < 8; i++) {
                appendByA();
            }
            assertThat(acknowledged).hasSize(8);
        }

        DiskLogEngine engine(Filesystem fs, ManualExecutor io, ManualExecutor mover, int epoch) {
            DiskLogEngine.Settings settings = new DiskLogEngine.Settings(EngineFixture.ROOT, epoch,
                    EngineFixture.FSYNC_MAX_LATENCY_MS, 64L * 1024 * 1024, true);
            return new DiskLogEngine(settings, LogDirectories.of(EngineFixture.ROOT, Map.of("bulk", BULK)), mover, fs,
                    f.codec, io, f.scheduler, f.clock, append -> { });
        }

        LogConfig config() {
            return f.config(TOPIC.configs());
        }

        /** A moves the partition; B takes it over at the chosen call, or after. Whether that was during the move. */
        boolean moveWithATakeover() {
            armed = true;
            assertThat(brokerA.moveLog(P0, "/vols/bulk", servedByA)).isEqualTo(KafkaError.NONE);
            aMover.runAll();
            aIo.runAll();
            armed = false;
            boolean during = servedByB != null;
            if (!during) {
                takeOverByB();
            }
            appendByA(); // the deposed leader may write, but must acknowledge nothing the new leader does not have
            for (int i = 0; i < 3; i++) {
                appendByB();
            }
            f.scheduler.advance(f.config(TOPIC.configs()).fileDeleteDelayMs()); // the mover's deferred removal
            aMover.runAll();
            aIo.runAll();
            return during;
        }

        void checkEverythingAcknowledgedIsReadOnceFromOneDir(String step) throws IOException {
            brokerB.relinquish(P0);
            DiskLogEngine next = engine(f.fs, new ManualExecutor(), new ManualExecutor(), 3);
            PartitionLog log = next.takeOver(TOPIC, P0, config(), 3);
            assertThat(readAll(log, 0)).as(step).extracting(LogDirMoveTakeoverTest::body)
                    .containsExactlyElementsOf(acknowledged.stream().map(LogDirMoveTakeoverTest::body).toList());
            boolean inBulk = next.logDirOf(P0).orElseThrow().equals("/vols/bulk");
            assertThat(segmentsIn(inBulk ? EngineFixture.ROOT : BULK)).as(step + ": the other dir's copy").isEmpty();
            assertThat(f.sim.exists(EngineFixture.ROOT.resolve("t/0/log-dir-move.json"))).as(step).isFalse();
        }

        private void takeOverByB() {
            servedByB = brokerB.takeOver(TOPIC, P0, config(), 2);
        }

        private void appendByA() {
            PartitionLog log = servedByA.log.get();
            if (log != null) {
                appendAndRecordIfAcknowledged(log, aIo);
            }
        }

        private void appendByB() {
            appendAndRecordIfAcknowledged(servedByB, bIo);
        }

        private void appendAndRecordIfAcknowledged(PartitionLog log, ManualExecutor io) {
            byte[] sent = batch(2, 200, f.clock.nowMs(), random);
            AppendResult result = log.append(ByteBuffer.wrap(sent.clone()), f.clock.nowMs());
            if (result instanceof AppendResult.Appended appended) {
                CompletableFuture<Void> durable = appended.durable().toCompletableFuture();
                io.runAll();
                if (durable.isDone() && !durable.isCompletedExceptionally()) {
                    acknowledged.add(sent);
                }
            }
        }

        private List<SegmentName> segmentsIn(Path root) {
            try {
                List<SegmentName> names = new ArrayList<>();
                for (String name : f.sim.list(root.resolve("t").resolve("0"))) {
                    SegmentName.parseLogFile(name).ifPresent(names::add);
                }
                return names;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A batch's bytes past the header fields the log rewrites (base offset, leader epoch): what was produced. */
    private static String body(byte[] batch) {
        return new String(batch, 16, batch.length - 16, StandardCharsets.ISO_8859_1);
    }
}
