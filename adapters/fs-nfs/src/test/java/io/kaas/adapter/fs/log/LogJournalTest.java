package io.kaas.adapter.fs.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.topic.Topic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The write-ahead journal ({@code KAAS_LOG_JOURNAL}): one fsync of the journal acknowledges every partition's
 * appends; a power loss after the acknowledgement loses nothing (the next start writes the journal back into the
 * segments); a deleted and re-created topic never gets the old topic's batches back; full journal files are
 * deleted once their partitions fsynced past them, and written over as the next file; once a spare is ready the
 * journal writes over it rather than growing a file.
 */
class LogJournalTest {
    private static final Path JOURNAL = EngineFixture.ROOT.resolve("__cluster").resolve("journal");
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(11);
    private final Topic topic = EngineFixture.topic("orders", 3, Map.of());

    @Test
    void oneJournalFsyncAcknowledgesEveryPartitionsAppends() {
        f.useJournal(1 << 20);
        List<PartitionLog> logs = List.of(f.open(topic, 0), f.open(topic, 1), f.open(topic, 2));
        f.commit();
        f.fs.resetCounters();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (PartitionLog log : logs) {
            acks.add(EngineFixture.appendDurable(log, Batches.batch(3, 100, 1_000L, random), f.clock.nowMs()));
        }
        assertTrue(acks.stream().noneMatch(CompletableFuture::isDone), "nothing is acknowledged before an fsync");
        f.commit();
        assertTrue(acks.stream().allMatch(a -> a.isDone() && !a.isCompletedExceptionally()));
        assertEquals(1, f.fs.forces(), "one fsync, the journal's, for three partitions");
        for (PartitionLog log : logs) {
            assertEquals(3, log.syncedOffset(), "the journal's fsync counts as this log's");
        }
    }

    @Test
    void aPowerLossAfterTheAcknowledgementLosesNothing() throws IOException {
        f.useJournal(1 << 20);
        List<byte[]> sent = new ArrayList<>();
        PartitionLog log = f.open(topic, 0);
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] batch = Batches.batch(2, 50 + i, 1_000L + i, random);
            sent.add(batch);
            acks.add(EngineFixture.appendDurable(log, batch, f.clock.nowMs()));
        }
        f.commit();
        assertTrue(acks.stream().allMatch(CompletableFuture::isDone));
        f.crash();
        assertFalse(f.sim.readAll(JOURNAL.resolve(journalFile(0))).orElseThrow().length == 0,
                "the journal survived the power loss");

        PartitionLog recovered = f.open(topic, 0);
        List<byte[]> read = EngineFixture.readAll(recovered, 0);
        assertEquals(sent.size(), read.size());
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(Batches.stored(sent.get(i), 2L * i, recovered.leaderEpoch()), read.get(i));
        }
        assertTrue(f.sim.list(JOURNAL).stream().allMatch(name -> name.equals(journalFile(1))),
                "the replayed files are gone and a new one started: " + f.sim.list(JOURNAL));
    }

    @Test
    void aReCreatedTopicNeverGetsTheDeletedTopicsBatches() throws IOException {
        f.useJournal(1 << 20);
        PartitionLog old = f.open(topic, 0);
        CompletableFuture<Void> ack = EngineFixture.appendDurable(old, Batches.batch(4, 500, 1_000L, random),
                f.clock.nowMs());
        f.commit();
        assertTrue(ack.isDone());
        deleteReCreateAndLosePowerThenOnlyTheNewBatchComesBack();
    }

    @Test
    void onceTheSpareIsFilledTheJournalWritesOverItWithoutGrowingIt() throws IOException {
        f.useJournal(64 * 1024);
        PartitionLog log = f.open(topic, 0);
        f.commit(); // fills the spare with zeros
        CompletableFuture<Void> ack = EngineFixture.appendDurable(log, Batches.batch(2, 100, 1_000L, random),
                f.clock.nowMs());
        f.commit();

        assertTrue(ack.isDone() && !ack.isCompletedExceptionally());
        assertEquals(List.of(journalFile(1)), f.sim.list(JOURNAL),
                "the empty first file retired, the spare renamed in its place");
        try (var current = f.sim.open(JOURNAL.resolve(journalFile(1)), false)) {
            assertEquals(64 * 1024, current.size(), "the entry written over zeros: no new file size to commit");
        }
    }

    @Test
    void retiredFilesAreWrittenOverAsTheNextOnesAndACrashBringsBackOnlyTheLiveBatches() throws IOException {
        f.useJournal(2_000);
        List<String> renames = new ArrayList<>();
        f.fs.beforeRename((from, to) -> renames.add(from.getFileName() + " -> " + to.getFileName()));
        PartitionLog old = f.open(topic, 0);
        for (int i = 0; i < 20; i++) {
            CompletableFuture<Void> ack = EngineFixture.appendDurable(old, Batches.batch(1, 100 + 40 * (i % 7),
                    1_000L + i, random), f.clock.nowMs());
            f.commit();
            assertTrue(ack.isDone() && !ack.isCompletedExceptionally());
        }
        assertTrue(renames.stream().anyMatch(r -> r.matches("\\d+\\.journal -> \\d+\\.spare")),
                "a retired full file became the spare: " + renames);
        assertTrue(renames.stream().filter(r -> r.matches("\\d+\\.spare -> \\d+\\.journal")).count() >= 3,
                "spares written over as journal files: " + renames);
        // the old topic's entries are still in the spares the new ones are written over (JournalEntryTest: read
        // up to the first entry of another file)
        deleteReCreateAndLosePowerThenOnlyTheNewBatchComesBack();
    }

    /** Deletes the topic, re-creates it with one acknowledged batch and loses power: only that batch comes back. */
    private void deleteReCreateAndLosePowerThenOnlyTheNewBatchComesBack() throws IOException {
        f.engine().delete(topic);
        PartitionLog fresh = f.open(topic, 0);
        byte[] batch = Batches.batch(1, 10, 2_000L, random);
        CompletableFuture<Void> freshAck = EngineFixture.appendDurable(fresh, batch, f.clock.nowMs());
        f.commit();
        assertTrue(freshAck.isDone());
        f.crash();

        PartitionLog recovered = f.open(topic, 0);
        List<byte[]> read = EngineFixture.readAll(recovered, 0);
        assertEquals(1, read.size(), "only the re-created topic's batch");
        assertArrayEquals(Batches.stored(batch, 0, recovered.leaderEpoch()), read.get(0));
    }

    @Test
    void aFileHoldingEntriesForRotateMsIsRetiredOnePartitionAtATime() throws IOException {
        f.useJournal(1 << 20);
        List<PartitionLog> logs = List.of(f.open(topic, 0), f.open(topic, 1), f.open(topic, 2));
        f.commit(); // fills the spare
        for (PartitionLog log : logs) {
            EngineFixture.appendDurable(log, Batches.batch(2, 100, 1_000L, random), f.clock.nowMs());
        }
        f.commit();
        List<String> journalFiles = f.sim.list(JOURNAL);
        List<Integer> queuedAtSegmentFsync = new ArrayList<>();
        f.fs.beforeForce(path -> {
            if (!path.startsWith(JOURNAL)) {
                queuedAtSegmentFsync.add(f.manualIo.pending());
            }
        });

        f.scheduler.advance(DiskLogEngine.Journal.DEFAULT_ROTATE_MS - 1);
        f.commit();
        assertEquals(journalFiles, f.sim.list(JOURNAL), "younger than rotateMs: still the file appended to");
        assertEquals(List.of(), queuedAtSegmentFsync);

        f.scheduler.advance(1);
        f.commit();
        assertEquals(List.of(0, 0, 0), queuedAtSegmentFsync, "each partition's segment fsync ran alone: the next "
                + "partition was asked for its fsync once the one before was done");
        for (PartitionLog log : logs) {
            assertEquals(2, log.syncedOffset());
        }
        List<String> rotated = f.sim.list(JOURNAL);
        assertEquals(2, rotated.size(), "the next file and the retired one kept as the spare: " + rotated);
        assertTrue(rotated.stream().anyMatch(name -> name.endsWith(".spare")), "a spare written over is reused: " + rotated);

        f.scheduler.advance(10 * DiskLogEngine.Journal.DEFAULT_ROTATE_MS);
        f.commit();
        assertEquals(rotated, f.sim.list(JOURNAL), "a file holding no entries is never closed for its age");
        f.crash();
        for (int p = 0; p < 3; p++) {
            assertEquals(1, EngineFixture.readAll(f.open(topic, p), 0).size());
        }
    }

    @Test
    void aFileWhosePartitionAnEarlierRetirementFsyncedPastIsRetiredToo() throws IOException {
        f.useJournal(2_000);
        PartitionLog log = f.open(topic, 0);
        f.commit(); // fills the spare
        EngineFixture.appendDurable(log, Batches.batch(1, 2_500, 1_000L, random), f.clock.nowMs()); // fills a file
        EngineFixture.appendDurable(log, Batches.batch(1, 100, 1_001L, random), f.clock.nowMs()); // into the next
        f.commit(); // retiring the full file fsyncs the segment through both batches
        List<String> before = journalFiles();
        assertEquals(1, before.size(), "the full file retired, the one holding the second batch open: " + before);

        f.scheduler.advance(DiskLogEngine.Journal.DEFAULT_ROTATE_MS);
        f.commit(); // that file ages out: its partition has nothing left to fsync for it
        List<String> after = journalFiles();
        assertEquals(1, after.size(), "it retired as well, not kept waiting for an fsync no commit runs: " + after);
        assertFalse(after.equals(before), "a new file is the one appended to: " + after);

        EngineFixture.appendDurable(log, Batches.batch(1, 2_500, 1_002L, random), f.clock.nowMs());
        f.commit();
        assertEquals(1, journalFiles().size(), "and the retirements after it go on: " + f.sim.list(JOURNAL));
        f.crash();
        assertEquals(3, EngineFixture.readAll(f.open(topic, 0), 0).size());
    }

    private List<String> journalFiles() throws IOException {
        return f.sim.list(JOURNAL).stream().filter(name -> name.endsWith(".journal")).toList();
    }

    private static String journalFile(long seq) {
        return String.format("%020d.journal", seq);
    }

    @Test
    void aFullJournalFileIsDeletedOnceItsPartitionsFsyncedPastIt() throws IOException {
        f.useJournal(2_000);
        PartitionLog log = f.open(topic, 0);
        for (int i = 0; i < 12; i++) {
            EngineFixture.appendDurable(log, Batches.batch(1, 400, 1_000L + i, random), f.clock.nowMs());
            f.commit();
        }
        List<String> files = journalFiles();
        assertEquals(1, files.size(), "only the file being written: " + files);
        assertTrue(log.syncedOffset() >= 12);
        f.crash();
        assertEquals(12, EngineFixture.readAll(f.open(topic, 0), 0).size(), "every acknowledged batch, "
                + "from the segment (fsynced for the retirement) or the journal");
    }
}
