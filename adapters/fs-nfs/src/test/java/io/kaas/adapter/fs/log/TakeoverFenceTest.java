package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.stored;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.appendDurable;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.AppendResult;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A deposed leader against the new one on the same volume: the new leader's takeover (recovery at a
 * higher epoch) rolls to a segment of its own and writes the manifest; the old leader, still open,
 * must not start segments, write state files, delete or acknowledge anything the new leader relies on.
 */
class TakeoverFenceTest {
    private static final String[] STATE_FILES = {"manifest.json", "recovery-checkpoint.json", "producer-state.snapshot"};

    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(5);
    private final Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "1500", "retention.ms", "1"));
    private final List<byte[]> live = new ArrayList<>();
    private final ManualExecutor newLeaderIo = new ManualExecutor();
    private PartitionLog deposed;
    private DiskLogEngine newLeaderEngine;
    private PartitionLog newLeader;

    @BeforeEach
    void takeOver() {
        f.epoch = 1;
        deposed = f.open(topic, 0);
        appendCommitted(deposed, 4, 1, f::commit);
        newLeaderEngine = new DiskLogEngine(new DiskLogEngine.Settings(EngineFixture.ROOT, 2,
                EngineFixture.FSYNC_MAX_LATENCY_MS, f.checkpointIntervalBytes), f.fs, f.codec, newLeaderIo, f.scheduler,
                f.clock, tp -> { });
        newLeader = newLeaderEngine.open(topic, topic.partition(0), f.config(topic.configs()));
        appendCommitted(newLeader, 3, 2, newLeaderIo::runAll);
        assertThat(f.segments(topic, 0)).containsExactly(new SegmentName(1, 0), new SegmentName(2, 4));
    }

    @Test
    void theDeposedLeaderIsRefusedAtItsNextRollAndFromThenOn() {
        List<byte[]> before = stateFiles();
        AppendResult result;
        int accepted = 0;
        do {
            result = deposed.append(ByteBuffer.wrap(batch(1, 200, 0, random)), 0);
            accepted++;
            f.commit();
        } while (result instanceof AppendResult.Appended && accepted < 50);

        assertThat(result).isInstanceOfSatisfying(AppendResult.Rejected.class,
                r -> assertThat(r.error()).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER));
        assertThat(((AppendResult.Rejected) result).message()).contains("epoch 2");
        AppendResult later = deposed.append(ByteBuffer.wrap(batch(1, 10, 0, random)), 0);
        assertThat(later).isInstanceOfSatisfying(AppendResult.Rejected.class,
                r -> assertThat(r.error()).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER));
        assertThat(f.segments(topic, 0)).as("no segment of the dead epoch started after the takeover")
                .containsExactly(new SegmentName(1, 0), new SegmentName(2, 4));
        assertThat(stateFiles()).containsExactlyElementsOf(before);
    }

    @Test
    void theDeposedLeadersCloseWritesNothingAndFailsItsUnflushedAppends() {
        List<byte[]> before = stateFiles();
        CompletableFuture<Void> unflushed = appendDurable(deposed, batch(1, 20, 0, random), 0);

        f.engine().close();

        assertThat(unflushed).isCompletedExceptionally();
        assertThat(unflushed.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join())
                .isInstanceOfSatisfying(KafkaException.class,
                        e -> assertThat(e.error()).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER));
        assertThat(stateFiles()).containsExactlyElementsOf(before);

        newLeaderIo.runAll();
        newLeaderEngine.close();
        f.epoch = 2;
        PartitionLog reopened = f.open(topic, 0);
        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(live);
    }

    @Test
    void theDeposedLeaderNeitherDeletesRecordsNorAppliesRetention() {
        List<byte[]> before = stateFiles();

        assertThat(deposed.deleteRecordsBefore(2)).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER);
        f.clock.advance(60_000);
        deposed.applyRetention(f.clock.nowMs());
        f.commit();

        assertThat(stateFiles()).containsExactlyElementsOf(before);
        assertThat(f.segments(topic, 0)).containsExactly(new SegmentName(1, 0), new SegmentName(2, 4));
        assertThat(readAll(newLeader, 0)).containsExactlyElementsOf(live);
    }

    /** Appends {@code count} single-record batches, each fsynced before the next; they join {@link #live}. */
    private void appendCommitted(PartitionLog log, int count, int epoch, Runnable commit) {
        for (int i = 0; i < count; i++) {
            byte[] b = batch(1, 100, 0, random);
            live.add(stored(b, append(log, b, 0), epoch));
            commit.run();
        }
    }

    private List<byte[]> stateFiles() {
        List<byte[]> out = new ArrayList<>();
        for (String name : STATE_FILES) {
            out.add(f.file(topic, 0, name).orElse(new byte[0]));
        }
        return out;
    }
}
