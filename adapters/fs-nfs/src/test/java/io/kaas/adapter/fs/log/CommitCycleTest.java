package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.EngineFixture.appendDurable;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.AppendQueue;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The group commits of one I/O task's appends run in that task, two partitions back to back (one more
 * task per further two, not one per partition), and
 * no acks=-1 append is acknowledged before an fsync covering it completed: every fsync is slowed
 * down by a hook that looks at the waiters while it is pending.
 */
class CommitCycleTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(23);
    private static final int PARTITIONS = 3;
    private final Topic topic = EngineFixture.topic("t", PARTITIONS, Map.of());

    /** One request's appends to every partition, held on their queues and run in one I/O task. */
    private List<CompletableFuture<Void>> appendToEveryPartition(List<PartitionLog> logs) {
        List<CompletableFuture<Void>> durable = new ArrayList<>();
        List<AppendQueue> turns = new ArrayList<>();
        for (PartitionLog log : logs) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            durable.add(done);
            byte[] records = batch(2, 100, f.clock.nowMs(), random);
            log.appendQueue().hold(() -> appendDurable(log, records, 0).whenComplete((v, e) -> {
                if (e == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(e);
                }
            }));
            turns.add(log.appendQueue());
        }
        AppendQueue.runTurns(turns);
        return durable;
    }

    private List<PartitionLog> openAll() {
        List<PartitionLog> logs = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            logs.add(f.open(topic, p));
        }
        return logs;
    }

    @Test
    void theTaskThatAppendedCommitsTwoOfItsPartitionsAndOneMoreTaskTheThird() {
        List<PartitionLog> logs = openAll();
        f.commit();
        long fsyncsBefore = f.fs.forces();

        List<CompletableFuture<Void>> durable = appendToEveryPartition(logs);

        assertThat(f.manualIo.pending()).isEqualTo(1);
        assertThat(f.manualIo.runAll()).as("the appends' task, and one task for the partitions past its two")
                .isEqualTo(2);
        assertThat(durable).allMatch(d -> d.isDone() && !d.isCompletedExceptionally());
        assertThat(f.fs.forces() - fsyncsBefore).as("one fsync per partition").isEqualTo(PARTITIONS);
    }

    @Test
    void noAppendIsAcknowledgedBeforeAnFsyncCoveringItCompleted() {
        List<PartitionLog> logs = openAll();
        f.commit();
        List<CompletableFuture<Void>> durable = new ArrayList<>();
        List<String> early = new ArrayList<>();
        List<CompletableFuture<Void>> late = new ArrayList<>();
        int[] forcesSeen = new int[PARTITIONS];
        f.fs.beforeForce(path -> {
            // Some partition's fsync is pending: a waiter already done whose batch (two records: the first
            // request's ends at 2, the second's at 4) no completed fsync covers is an early acknowledgement;
            // so is one done before its own partition's first (second, for the late one) fsync even began.
            for (int p = 0; p < logs.size(); p++) {
                long synced = logs.get(p).syncedOffset();
                if (durable.get(p).isDone() && synced < 2 || !late.isEmpty() && late.get(p).isDone() && synced < 4) {
                    early.add(path + ": partition " + p + " acknowledged with the synced offset at " + synced);
                }
            }
            if (path.toString().endsWith(".log")) {
                int p = Integer.parseInt(path.getParent().getFileName().toString().replace("t-", ""));
                int seen = ++forcesSeen[p];
                if (seen == 1 && durable.get(p).isDone() || seen == 2 && late.get(p).isDone()) {
                    early.add(path + ": acknowledged before fsync " + seen + " of its partition started");
                }
            }
            if (late.isEmpty()) { // appends arriving while the first fsync is pending wait for a later one
                late.addAll(appendToEveryPartition(logs));
            }
        });

        durable.addAll(appendToEveryPartition(logs));
        f.commit();

        assertThat(early).isEmpty();
        assertThat(forcesSeen).as("each partition's batches took two fsyncs").containsOnly(2);
        assertThat(durable).allMatch(d -> d.isDone() && !d.isCompletedExceptionally());
        assertThat(late).allMatch(d -> d.isDone() && !d.isCompletedExceptionally());
        for (PartitionLog log : logs) {
            assertThat(log.syncedOffset()).isEqualTo(log.offsets().logEndOffset());
        }
    }
}
