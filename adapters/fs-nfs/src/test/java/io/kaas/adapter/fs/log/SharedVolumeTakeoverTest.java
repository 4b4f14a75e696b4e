package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.stored;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.appendDurable;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * Two brokers on one volume in cluster mode ({@code sharedVolume}): the partition moves from one to
 * the other by {@link DiskLogEngine#takeOver} at a higher leader epoch. What the old leader
 * acknowledged before the takeover is in the new leader's log; after it, the old leader acknowledges
 * nothing, even for bytes it had already written.
 */
class SharedVolumeTakeoverTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(3);
    private final Topic topic = EngineFixture.topic("t", 1, Map.of());
    private final ManualExecutor aIo = new ManualExecutor();
    private final ManualExecutor bIo = new ManualExecutor();
    private final DiskLogEngine brokerA = engine(aIo);
    private final DiskLogEngine brokerB = engine(bIo);

    private DiskLogEngine engine(ManualExecutor io) {
        return new DiskLogEngine(new DiskLogEngine.Settings(EngineFixture.ROOT, 0, EngineFixture.FSYNC_MAX_LATENCY_MS,
                64L * 1024 * 1024, true), f.fs, new JacksonCodec(), io, f.scheduler, f.clock, append -> { });
    }

    private PartitionLog lead(DiskLogEngine broker, int epoch) {
        return broker.takeOver(topic, topic.partition(0), f.config(Map.of()), epoch);
    }

    @Test
    void whatTheOldLeaderAcknowledgedIsInTheNewLeadersLogAndTheNewOneWritesItsOwnSegment() {
        PartitionLog a = lead(brokerA, 1);
        List<byte[]> acknowledged = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] sent = batch(1, 100, 0, random);
            CompletableFuture<Void> durable = appendDurable(a, sent, 0);
            aIo.runAll();
            assertThat(durable).isCompleted();
            acknowledged.add(stored(sent, i, 1));
        }

        PartitionLog b = lead(brokerB, 2);

        assertThat(readAll(b, 0)).containsExactlyElementsOf(acknowledged);
        byte[] next = batch(1, 100, 0, random);
        assertThat(append(b, next, 0)).isEqualTo(5);
        bIo.runAll();
        assertThat(f.segments(topic, 0)).containsExactly(new SegmentName(1, 0), new SegmentName(2, 5));
        assertThat(b.leaderEpoch()).isEqualTo(2);
    }

    @Test
    void afterTheTakeoverTheOldLeaderAcknowledgesNothingItHadWritten() {
        PartitionLog a = lead(brokerA, 1);
        appendDurable(a, batch(1, 100, 0, random), 0);
        aIo.runAll();
        CompletableFuture<Void> writtenNotYetSynced = appendDurable(a, batch(1, 100, 0, random), 0);

        lead(brokerB, 2);
        aIo.runAll(); // the old leader's group commit: its fsync succeeds, the fence it reads after does not

        assertThat(writtenNotYetSynced).isCompletedExceptionally();
        Throwable cause = writtenNotYetSynced.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
        assertThat(cause).isInstanceOfSatisfying(KafkaException.class,
                e -> assertThat(e.error()).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER));
    }

    @Test
    void theTakeoverRaisesTheEpochOnTheVolumeBeforeItReadsTheLog() {
        PartitionLog a = lead(brokerA, 1);
        appendDurable(a, batch(1, 100, 0, random), 0);
        aIo.runAll();
        List<Long> logBytesReadAtManifestWrites = new ArrayList<>();
        f.fs.resetCounters();
        f.fs.beforeRename((from, to) -> {
            if (to.getFileName().toString().equals("manifest.json")) {
                logBytesReadAtManifestWrites.add(f.fs.logBytesRead());
            }
        });

        lead(brokerB, 2);

        assertThat(logBytesReadAtManifestWrites).as("the fence, then the recovery's own manifest").hasSize(2);
        assertThat(logBytesReadAtManifestWrites.get(0)).as("no log byte read before the fence").isZero();
        assertThat(logBytesReadAtManifestWrites.get(1)).isPositive();
    }

    @Test
    void aRelinquishedPartitionIsClosedAndItsNextLeaderFindsEverything() {
        PartitionLog a = lead(brokerA, 1);
        byte[] sent = batch(1, 100, 0, random);
        appendDurable(a, sent, 0);
        aIo.runAll();

        brokerA.relinquish(topic.partition(0));
        aIo.runAll();
        PartitionLog b = lead(brokerB, 2);

        assertThat(readAll(b, 0)).containsExactly(stored(sent, 0, 1));
        PartitionLog again = lead(brokerA, 3);
        assertThat(again).as("a new log, not the relinquished one").isNotSameAs(a);
        assertThat(again.leaderEpoch()).isEqualTo(3);
    }
}
