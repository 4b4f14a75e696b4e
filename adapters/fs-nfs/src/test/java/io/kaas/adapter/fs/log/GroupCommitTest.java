package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.stored;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.appendDurable;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kaas.application.log.AppendResult;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * acks=-1 durability: group commit, the flush.messages dial, and what fsync failures, hung fsyncs
 * and a full disk do to one partition and not to the others. The committer runs on an executor
 * the test drives by hand, except where an fsync must really block.
 */
class GroupCommitTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(17);
    private final Topic topic = EngineFixture.topic("t", 2, Map.of());
    private ExecutorService thread;

    @AfterEach
    void releaseHungFsyncs() throws InterruptedException {
        f.sim.releaseFsyncs();
        if (thread != null) {
            thread.shutdown();
            assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private byte[] oneRecord() {
        return batch(1, 100, f.clock.nowMs(), random);
    }

    @Test
    void aRetryAnsweredAsADuplicateIsDurableNoSoonerThanItsOriginal() {
        PartitionLog log = f.open(topic, 0);
        byte[] sent = batch(3, 100, f.clock.nowMs(), 42L, (short) 0, 0, random);
        CompletableFuture<Void> original = appendDurable(log, sent, 0);
        AppendResult retry = log.append(ByteBuffer.wrap(sent.clone()), 0); // the producer re-sends it before the fsync

        assertThat(retry).isEqualTo(new AppendResult.Duplicate(0, 0));
        CompletableFuture<Void> retryDurable = log.durableThrough(3).toCompletableFuture();
        assertThat(retryDurable).isNotDone();

        f.commit();

        assertThat(original).isCompleted();
        assertThat(retryDurable).isCompleted();
        assertThat(log.durableThrough(3)).as("durable already").isCompleted();
    }

    @Test
    void appendsArrivingWhileAnFsyncIsPendingShareTheNextSingleFsync() {
        PartitionLog log = f.open(topic, 0);
        long fsyncsBefore = f.sim.fsyncCount();
        List<CompletableFuture<Void>> late = new ArrayList<>();
        List<Boolean> lateDoneAtSecondFsync = new ArrayList<>();
        CompletableFuture<Void> first = appendDurable(log, oneRecord(), 0);
        f.fs.beforeForce(path -> {
            if (late.isEmpty()) { // the first fsync is in flight: three producers append meanwhile
                for (int i = 0; i < 3; i++) {
                    late.add(appendDurable(log, oneRecord(), 0));
                }
                assertThat(late).noneMatch(CompletableFuture::isDone);
            } else {
                late.forEach(l -> lateDoneAtSecondFsync.add(l.isDone()));
            }
        });

        f.commit();

        assertThat(first).isCompleted();
        assertThat(late).allMatch(l -> l.isDone() && !l.isCompletedExceptionally());
        assertThat(lateDoneAtSecondFsync).containsExactly(false, false, false);
        assertThat(f.sim.fsyncCount() - fsyncsBefore).isEqualTo(2);
    }

    @Test
    void manyWaitingAppendsAreCompletedByOneFsync() {
        PartitionLog log = f.open(topic, 0);
        long fsyncsBefore = f.sim.fsyncCount();
        List<CompletableFuture<Void>> waiting = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waiting.add(appendDurable(log, oneRecord(), 0));
        }
        assertThat(f.manualIo.pending()).isEqualTo(1); // one committer run, not one per append

        f.commit();

        assertThat(waiting).allMatch(w -> w.isDone() && !w.isCompletedExceptionally());
        assertThat(f.sim.fsyncCount() - fsyncsBefore).isEqualTo(1);
    }

    @Test
    void aDurableFutureCompletesOnlyAfterAnFsyncCoversItsBatch() {
        // across a roll: the batch is durable once the sealed segment, the new one and the directory entry are
        Topic small = EngineFixture.topic("small", 1, Map.of("segment.bytes", "300"));
        PartitionLog log = f.open(small, 0);
        append(log, batch(1, 200, 0, random), 0); // fills the first segment, never fsynced
        List<Path> forcedWhenDone = new ArrayList<>();
        List<Path> forced = new ArrayList<>();
        f.fs.beforeForce(forced::add);
        long directoryFsyncsBefore = f.sim.directoryFsyncCount();
        long[] directoryFsyncsWhenDone = {-1};

        CompletableFuture<Void> durable = appendDurable(log, batch(1, 200, 0, random), 0);
        durable.thenRun(() -> {
            forcedWhenDone.addAll(forced);
            directoryFsyncsWhenDone[0] = f.sim.directoryFsyncCount();
        });
        assertThat(durable).isNotDone();
        f.commit();

        assertThat(durable).isCompleted();
        Path dir = f.dir(small, 0);
        assertThat(forcedWhenDone).contains(dir.resolve(new SegmentName(0, 0).logFile()),
                dir.resolve(new SegmentName(0, 1).logFile()));
        assertThat(directoryFsyncsWhenDone[0]).isGreaterThan(directoryFsyncsBefore);
    }

    @Test
    void flushMessagesRequestsAnFsyncOnlyEveryNRecords() {
        Topic dial = EngineFixture.topic("dial", 1, Map.of("flush.messages", "3"));
        PartitionLog log = f.open(dial, 0);
        long fsyncsBefore = f.sim.fsyncCount();

        CompletableFuture<Void> one = appendDurable(log, oneRecord(), 0);
        CompletableFuture<Void> two = appendDurable(log, oneRecord(), 0);
        assertThat(one).isCompleted(); // Apache's flush.messages: below the interval an ack does not wait
        assertThat(two).isCompleted();
        assertThat(f.manualIo.pending()).isZero();

        CompletableFuture<Void> three = appendDurable(log, oneRecord(), 0);
        assertThat(three).isNotDone();
        f.commit();
        assertThat(three).isCompleted();
        assertThat(f.sim.fsyncCount() - fsyncsBefore).isEqualTo(1);

        // the count is of records, not batches
        assertThat(appendDurable(log, oneRecord(), 0)).isCompleted();
        CompletableFuture<Void> fiveRecords = appendDurable(log, batch(5, 100, 0, random), 0);
        assertThat(fiveRecords).isNotDone();
        f.commit();
        assertThat(fiveRecords).isCompleted();
    }

    @Test
    void theBrokerWideFlushIntervalAppliesWhenTheTopicSetsNone() {
        f.defaults.put("flush.messages", "2");
        PartitionLog log = f.open(topic, 0);

        assertThat(appendDurable(log, oneRecord(), 0)).isCompleted();
        assertThat(appendDurable(log, oneRecord(), 0)).isNotDone();
    }

    @Test
    void aFailedFsyncFailsItsWaitersAndStallsOnlyItsPartition() {
        PartitionLog failing = f.open(topic, 0);
        PartitionLog healthy = f.open(topic, 1);
        CompletableFuture<Void> waiter = appendDurable(failing, oneRecord(), 0);
        f.sim.failNextFsyncs(1);

        f.commit();

        assertThat(waiter).isCompletedExceptionally();
        AppendResult next = failing.append(ByteBuffer.wrap(oneRecord()), 0);
        assertThat(next).isInstanceOf(AppendResult.Rejected.class);
        assertThat(((AppendResult.Rejected) next).error()).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(f.manualIo.pending()).isZero(); // failing fast: no fsync attempted
        assertThat(failing.stalled()).isTrue();
        assertThat(healthy.stalled()).isFalse();

        CompletableFuture<Void> other = appendDurable(healthy, oneRecord(), 0);
        f.commit();
        assertThat(other).isCompleted();
        assertThat(failing.read(0, 1000, true).error()).isEqualTo(KafkaError.NONE); // reads go on
    }

    @Test
    void aStalledPartitionWorksAgainAfterARestart() {
        PartitionLog log = f.open(topic, 0);
        byte[] acked = oneRecord();
        CompletableFuture<Void> ok = appendDurable(log, acked, 0);
        f.commit();
        appendDurable(log, oneRecord(), 0);
        f.sim.failNextFsyncs(1);
        f.commit();
        assertThat(log.append(ByteBuffer.wrap(oneRecord()), 0)).isInstanceOf(AppendResult.Rejected.class);
        assertThat(ok).isCompleted();
        f.crash();

        PartitionLog restarted = f.open(topic, 0);

        assertThat(readAll(restarted, 0)).first().isEqualTo(stored(acked, 0, 0));
        CompletableFuture<Void> after = appendDurable(restarted, oneRecord(), 0);
        f.commit();
        assertThat(after).isCompleted();
    }

    @Test
    void anFsyncHangingPastTheWatchdogFailsItsWaitersAndLaterAppendsFailFast() throws InterruptedException {
        thread = Executors.newSingleThreadExecutor();
        f.io = thread; // this fsync really blocks, so the committer needs its own thread
        Topic other = EngineFixture.topic("other", 1, Map.of());
        PartitionLog hung = f.open(topic, 0);
        PartitionLog healthy = f.open(other, 0);
        f.sim.hangFsyncs();

        CompletableFuture<Void> waiter = appendDurable(hung, oneRecord(), 0);
        assertThat(f.sim.awaitHungFsync(10, TimeUnit.SECONDS)).isTrue();
        f.scheduler.advance(EngineFixture.FSYNC_MAX_LATENCY_MS - 1);
        assertThat(waiter).isNotDone();
        f.scheduler.advance(1); // the watchdog fires

        assertThat(waiter).isCompletedExceptionally();
        AppendResult next = hung.append(ByteBuffer.wrap(oneRecord()), 0);
        assertThat(next).isInstanceOf(AppendResult.Rejected.class);
        assertThat(((AppendResult.Rejected) next).error()).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);

        f.sim.releaseFsyncs(); // the NFS server comes back: the orphaned fsync drains
        CompletableFuture<Void> elsewhere = appendDurable(healthy, oneRecord(), 0);
        await().atMost(Duration.ofSeconds(10)).until(elsewhere::isDone);
        assertThat(elsewhere).isCompleted();
        assertThat(hung.append(ByteBuffer.wrap(oneRecord()), 0)).isInstanceOf(AppendResult.Rejected.class); // sticky
    }

    @Test
    void closingAStalledPartitionDoesNotWaitForItsHungFsync() throws InterruptedException {
        thread = Executors.newSingleThreadExecutor();
        f.io = thread;
        PartitionLog hung = f.open(EngineFixture.topic("alone", 1, Map.of()), 0);
        f.sim.hangFsyncs();
        CompletableFuture<Void> waiter = appendDurable(hung, oneRecord(), 0);
        assertThat(f.sim.awaitHungFsync(10, TimeUnit.SECONDS)).isTrue();
        f.scheduler.advance(EngineFixture.FSYNC_MAX_LATENCY_MS);
        assertThat(waiter).isCompletedExceptionally();

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> f.engine().close()); // while the fsync still hangs
    }

    @Test
    void aCloseThatCannotFsyncFailsTheWaitersInsteadOfLeavingThemHanging() {
        PartitionLog log = f.open(topic, 0);
        CompletableFuture<Void> waiter = appendDurable(log, oneRecord(), 0); // the committer has not run
        f.sim.failNextFsyncs(1);

        f.engine().close();

        assertThat(waiter).isCompletedExceptionally();
    }

    @Test
    void aFullDiskFailsThatAppendWithAStorageErrorAndTheLogStaysConsistent() {
        PartitionLog log = f.open(topic, 0);
        List<byte[]> acked = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] b = oneRecord();
            acked.add(stored(b, append(log, b, 0), 0));
        }
        f.commit();
        long end = log.offsets().highWatermark();
        AtomicBoolean partial = new AtomicBoolean();
        for (int attempt = 0; attempt < 20; attempt++) { // the sim writes a random prefix before ENOSPC
            f.sim.setCapacityBytes(f.sim.usedBytes() + 50);
            long written = f.sim.bytesWritten();
            AppendResult full = log.append(ByteBuffer.wrap(batch(1, 400, 0, random)), 0);
            partial.compareAndSet(false, f.sim.bytesWritten() > written);

            assertThat(full).isInstanceOf(AppendResult.Rejected.class);
            assertThat(((AppendResult.Rejected) full).error()).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
            assertThat(log.offsets().highWatermark()).isEqualTo(end);
        }
        assertThat(partial).as("some attempt wrote part of its batch").isTrue();
        f.sim.setCapacityBytes(Long.MAX_VALUE);

        byte[] after = oneRecord();
        CompletableFuture<Void> durable = appendDurable(log, after, 0);
        f.commit();
        assertThat(durable).isCompleted();
        acked.add(stored(after, end, 0));
        assertThat(readAll(log, 0)).containsExactlyElementsOf(acked);
        f.crash();
        assertThat(readAll(f.open(topic, 0), 0)).containsExactlyElementsOf(acked);
    }
}
