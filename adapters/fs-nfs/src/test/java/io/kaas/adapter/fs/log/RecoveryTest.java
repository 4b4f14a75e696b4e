package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.stored;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.appendDurable;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.sim.SimOptions;
import io.kaas.application.fake.HeaderStampedRecords;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.PartitionState;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Opening a partition: torn tails, the checkpoint fast path, producer state, gaps and the log start. */
class RecoveryTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(11);
    private final Topic topic = EngineFixture.topic("t", 1, Map.of("index.interval.bytes", "256"));

    private List<byte[]> appendAcked(PartitionLog log, int count, int epoch) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] b = batch(1 + random.nextInt(4), 40 + random.nextInt(300), f.clock.nowMs(), random);
            CompletableFuture<Void> durable = appendDurable(log, b, f.clock.nowMs());
            f.commit();
            assertThat(durable).isCompleted();
            out.add(stored(b, log.offsets().highWatermark() - Batches.header(b).recordsCount(), epoch));
        }
        return out;
    }

    private long logSize(SegmentName name) {
        return f.file(topic, 0, name.logFile()).orElseThrow().length;
    }

    @Test
    void bytesAfterTheLastValidBatchAreTruncatedAndAppendsContinueContiguously() throws IOException {
        PartitionLog log = f.open(topic, 0);
        List<byte[]> acked = appendAcked(log, 20, 0);
        long end = log.offsets().highWatermark();
        long validBytes = logSize(new SegmentName(0, 0));
        f.kill();
        // what a crash mid-write leaves: the start of a batch, then garbage
        byte[] next = stored(batch(3, 500, 0, random), end, 0);
        try (var handle = f.sim.open(f.dir(topic, 0).resolve(new SegmentName(0, 0).logFile()), false)) {
            handle.write(ByteBuffer.wrap(next, 0, 200), validBytes);
            handle.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}), validBytes + 200);
            handle.force();
        }

        PartitionLog reopened = f.open(topic, 0);

        assertThat(reopened.offsets().highWatermark()).isEqualTo(end);
        assertThat(logSize(new SegmentName(0, 0))).isEqualTo(validBytes);
        byte[] more = batch(2, 100, f.clock.nowMs(), random);
        assertThat(append(reopened, more, f.clock.nowMs())).isEqualTo(end);
        List<byte[]> expected = new ArrayList<>(acked);
        expected.add(stored(more, end, 0));
        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(expected);
        f.close();
        assertThat(readAll(f.open(topic, 0), 0)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aTornCrashKeepsEveryAcknowledgedBatchAndDropsTheGarbage(long seed) {
        EngineFixture torn = new EngineFixture(seed, SimOptions.reliable().withGarbledTornPage(true));
        PartitionLog log = torn.open(topic, 0);
        List<byte[]> acked = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            byte[] b = batch(1 + random.nextInt(4), 1000 + random.nextInt(3000), 0, random);
            long base = append(log, b, 0);
            acked.add(stored(b, base, 0));
        }
        torn.commit();
        for (int i = 0; i < 10; i++) { // never acknowledged: fsync not run
            append(log, batch(1 + random.nextInt(4), 1000 + random.nextInt(3000), 0, random), 0);
        }
        torn.crash();

        PartitionLog reopened = torn.open(topic, 0);

        List<byte[]> recovered = readAll(reopened, 0);
        assertThat(recovered.size()).isGreaterThanOrEqualTo(acked.size());
        assertThat(recovered.subList(0, acked.size())).containsExactlyElementsOf(acked);
        assertThat(recovered).allSatisfy(b -> assertThat(Batches.crcValid(b)).isTrue());
        long end = reopened.offsets().highWatermark();
        assertThat(append(reopened, batch(1, 10, 0, random), 0)).isEqualTo(end);
    }

    @Test
    void afterACleanCloseTheReopenScansNothingPastTheCheckpoint() throws IOException {
        PartitionLog log = f.open(topic, 0);
        appendAcked(log, 200, 0);
        f.close();
        long size = logSize(new SegmentName(0, 0));
        PartitionState.Checkpoint checkpoint = f.codec.decode(f.file(topic, 0, "recovery-checkpoint.json").orElseThrow(),
                PartitionState.Checkpoint.class);
        assertThat(checkpoint.bytePosition()).isEqualTo(size);
        f.fs.resetCounters();

        PartitionLog reopened = f.open(topic, 0);

        // only the first batch's header (for segment.ms) and the batches after the last index entry
        assertThat(f.fs.logBytesRead()).isLessThanOrEqualTo(RecordBatchHeader.HEADER_SIZE + 256 + 400);
        assertThat(size).isGreaterThan(30_000);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(log.offsets().highWatermark());
    }

    @Test
    void afterACrashTheReopenScansOnlyTheTailPastTheCheckpoint() throws IOException {
        f.checkpointIntervalBytes = 8_000;
        PartitionLog log = f.open(topic, 0);
        List<byte[]> acked = appendAcked(log, 150, 0);
        f.crash();
        long size = logSize(new SegmentName(0, 0));
        PartitionState.Checkpoint checkpoint = f.codec.decode(f.file(topic, 0, "recovery-checkpoint.json").orElseThrow(),
                PartitionState.Checkpoint.class);
        assertThat(checkpoint.segment()).isEqualTo(new SegmentName(0, 0).stem());
        assertThat(size - checkpoint.bytePosition()).isBetween(1L, 8_000L);
        f.fs.resetCounters();

        PartitionLog reopened = f.open(topic, 0);

        // the tail from the index entry below the checkpoint: verified, then replayed for producer state
        long tail = size - checkpoint.bytePosition() + 256 + 400;
        assertThat(f.fs.logBytesRead()).isLessThanOrEqualTo(RecordBatchHeader.HEADER_SIZE + 2 * tail);
        assertThat(f.fs.logBytesRead()).isLessThan(size / 2);
        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(acked);
    }

    @Test
    void aRetriedBatchAfterACleanRestartIsADuplicateWithItsOriginalOffset() {
        PartitionLog log = f.open(topic, 0);
        append(log, batch(3, 50, 0, random), 0); // someone else's batch first, so offsets are not sequences
        List<byte[]> sent = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int seq = 0; seq < 15; seq += 3) {
            byte[] b = batch(3, 50, 0, 1000L, (short) 0, seq, random);
            sent.add(b);
            offsets.add(append(log, b, 0));
        }
        f.close();

        PartitionLog reopened = f.open(topic, 0);

        for (int i = 0; i < sent.size(); i++) {
            AppendResult retry = reopened.append(ByteBuffer.wrap(sent.get(i).clone()), 0);
            assertThat(retry).isEqualTo(new AppendResult.Duplicate(offsets.get(i), 0));
        }
        assertThat(reopened.append(ByteBuffer.wrap(batch(1, 50, 0, 1000L, (short) 0, 16, random)), 0))
                .isInstanceOf(AppendResult.Rejected.class); // a gap in sequences is still out of order
        assertThat(reopened.append(ByteBuffer.wrap(batch(1, 50, 0, 1000L, (short) 0, 15, random)), 0))
                .isInstanceOf(AppendResult.Appended.class);
    }

    @Test
    void aRetriedBatchAfterACrashIsADuplicateFromTheSnapshotAndTheLog() {
        // a roll writes the snapshot; the batches after it are replayed from the log
        Topic small = EngineFixture.topic("small", 1, Map.of("segment.bytes", "600"));
        PartitionLog log = f.open(small, 0);
        List<byte[]> sent = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int seq = 0; seq < 40; seq += 2) {
            byte[] b = batch(2, 150, 0, 77L, (short) 3, seq, random);
            sent.add(b);
            CompletableFuture<Void> durable = appendDurable(log, b, 0);
            f.commit();
            assertThat(durable).isCompleted();
            offsets.add(log.offsets().highWatermark() - 2);
        }
        assertThat(f.segments(small, 0)).hasSizeGreaterThan(3);
        f.crash();

        PartitionLog reopened = f.open(small, 0);

        // the producer's window holds its last five batches, as Apache's
        for (int i = sent.size() - 5; i < sent.size(); i++) {
            assertThat(reopened.append(ByteBuffer.wrap(sent.get(i).clone()), 0))
                    .isEqualTo(new AppendResult.Duplicate(offsets.get(i), 0));
        }
        assertThat(reopened.append(ByteBuffer.wrap(batch(2, 150, 0, 77L, (short) 3, 40, random)), 0))
                .isInstanceOf(AppendResult.Appended.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "truncated", "missing", "zeros"})
    void aDamagedIndexOfAClosedSegmentIsNotTrusted(String damage) throws IOException {
        Topic small = EngineFixture.topic("small", 1, Map.of("segment.bytes", "3000", "index.interval.bytes", "200"));
        PartitionLog log = f.open(small, 0);
        List<byte[]> stored = new ArrayList<>();
        List<Long> timestamps = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long ts = 1_000 + i * 10L;
            byte[] b = batch(1 + random.nextInt(3), 100 + random.nextInt(100), ts, random);
            stored.add(stored(b, append(log, b, 0), 0));
            timestamps.add(ts);
        }
        f.close();
        SegmentName closed = f.segments(small, 0).get(0);
        for (String file : List.of(closed.indexFile(), closed.timeIndexFile())) {
            var path = f.dir(small, 0).resolve(file);
            byte[] content = f.sim.readAll(path).orElseThrow();
            assertThat(content.length).isGreaterThan(16);
            switch (damage) {
                case "garbage" -> random.nextBytes(content);
                case "truncated" -> content = java.util.Arrays.copyOf(content, content.length / 2 + 3);
                case "zeros" -> java.util.Arrays.fill(content, (byte) 0);
                default -> content = null;
            }
            f.sim.delete(path);
            if (content != null) {
                try (var handle = f.sim.open(path, true)) {
                    handle.write(ByteBuffer.wrap(content), 0);
                    handle.force();
                }
            }
        }

        PartitionLog reopened = f.open(small, 0);

        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(stored);
        for (int i = 0; i < stored.size(); i++) {
            long base = Batches.header(stored.get(i)).baseOffset();
            assertThat(Batches.split(reopened.read(base, 1, true).records().toByteBuffer()).get(0)).isEqualTo(stored.get(i));
            assertThat(reopened.offsetForTimestamp(timestamps.get(i), new HeaderStampedRecords())).hasValueSatisfying(found ->
                    assertThat(found.offset()).isEqualTo(base));
        }
    }

    @Test
    void aSegmentAfterAGapIsDroppedAndTheLogEndsBeforeIt() {
        PartitionLog log = f.open(topic, 0);
        List<byte[]> acked = appendAcked(log, 5, 0);
        long end = log.offsets().highWatermark();
        f.close();
        // a segment that starts past the end of the one before: nothing in it was ever acknowledged
        SegmentName stray = new SegmentName(0, end + 10);
        writeSegment(stray, List.of(stored(batch(1, 10, 0, random), end + 10, 0)));

        PartitionLog reopened = f.open(topic, 0);

        assertThat(reopened.offsets().highWatermark()).isEqualTo(end);
        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(acked);
        assertThat(f.segments(topic, 0)).doesNotContain(stray);
    }

    @Test
    void closedSegmentsWhollyBelowThePersistedLogStartAreRemovedOnOpen() {
        // A crash between DeleteRecords' manifest write and its unlinks leaves such segments behind.
        Topic small = EngineFixture.topic("small", 1, Map.of("segment.bytes", "1000"));
        PartitionLog log = f.open(small, 0);
        for (int i = 0; i < 20; i++) {
            append(log, batch(1, 200, 0, random), 0);
        }
        f.close();
        List<SegmentName> before = f.segments(small, 0);
        long logStart = before.get(2).baseOffset() + 1;
        writeManifest(small, new PartitionState.Manifest(0, 20, logStart));

        PartitionLog reopened = f.open(small, 0);

        assertThat(reopened.offsets().logStartOffset()).isEqualTo(logStart);
        assertThat(f.segments(small, 0)).containsExactlyElementsOf(before.subList(2, before.size()));
        assertThat(Batches.header(readAll(reopened, logStart).get(0)).baseOffset()).isEqualTo(logStart);
    }

    @Test
    void bytesAProcessLeftUnsyncedAreMadeDurableBeforeNewAcknowledgements() {
        // kill -9 keeps written bytes in the page cache; recovery reads them as valid. If the log then
        // acknowledged new batches by fsyncing only the active segment, a power loss could take the older,
        // never-fsynced bytes and leave a hole below acknowledged data - which recovery then drops.
        Topic small = EngineFixture.topic("small", 1, Map.of("segment.bytes", "1000"));
        PartitionLog log = f.open(small, 0);
        for (int i = 0; i < 12; i++) {
            append(log, batch(1, 200, 0, random), 0); // the committer never runs: nothing fsynced
        }
        assertThat(f.segments(small, 0)).hasSizeGreaterThan(2);
        f.kill();

        PartitionLog restarted = f.open(small, 0);
        assertThat(restarted.offsets().highWatermark()).isEqualTo(12);
        byte[] b = batch(1, 200, 0, random);
        CompletableFuture<Void> durable = appendDurable(restarted, b, 0);
        f.commit();
        assertThat(durable).isCompleted();
        f.crash();

        PartitionLog recovered = f.open(small, 0);

        assertThat(recovered.offsets().highWatermark()).isEqualTo(13);
        List<byte[]> all = readAll(recovered, 0);
        assertThat(all.get(12)).isEqualTo(stored(b, 12, 0));
    }

    // ---- epochs ----

    @Test
    void openingWithANewerEpochRollsToASegmentStampedWithIt() {
        f.epoch = 1;
        PartitionLog log = f.open(topic, 0);
        List<byte[]> first = appendAcked(log, 5, 1);
        long end = log.offsets().highWatermark();
        f.close();

        f.epoch = 2;
        PartitionLog reopened = f.open(topic, 0);
        List<byte[]> second = appendAcked(reopened, 3, 2);

        assertThat(reopened.leaderEpoch()).isEqualTo(2);
        assertThat(f.segments(topic, 0)).containsExactly(new SegmentName(1, 0), new SegmentName(2, end));
        List<byte[]> all = readAll(reopened, 0);
        assertThat(all.subList(0, 5)).containsExactlyElementsOf(first);
        assertThat(all.subList(5, 8)).containsExactlyElementsOf(second);
        assertThat(all).extracting(b -> Batches.header(b).partitionLeaderEpoch()).containsExactly(1, 1, 1, 1, 1, 2, 2, 2);
    }

    @Test
    void anEmptyActiveSegmentOfAnOlderEpochIsReplacedRatherThanKept() {
        f.epoch = 1;
        f.open(topic, 0);
        f.close();
        f.epoch = 2;
        f.open(topic, 0);

        assertThat(f.segments(topic, 0)).containsExactly(new SegmentName(2, 0));
    }

    @Test
    void aDeposedLeadersFileWithTheSameBaseOffsetIsIgnored() {
        List<byte[]> live = twoEpochs(5, 5);
        // the old leader rolled at the same offset, into a file of its dead epoch
        writeSegment(new SegmentName(1, 5), List.of(stored(batch(1, 50, 0, random), 5, 1),
                stored(batch(1, 50, 0, random), 6, 1)));

        PartitionLog reopened = f.open(topic, 0);

        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(live);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(10);
    }

    @Test
    void anOlderEpochSegmentThatGrewPastTheNextSegmentsBaseIsReadOnlyUpToIt() throws IOException {
        List<byte[]> live = twoEpochs(5, 5);
        // the old leader kept appending to its segment after the new leader started at offset 5
        SegmentName old = new SegmentName(1, 0);
        long size = logSize(old);
        byte[] late = stored(batch(1, 50, 0, random), 5, 1);
        try (var handle = f.sim.open(f.dir(topic, 0).resolve(old.logFile()), false)) {
            handle.write(ByteBuffer.wrap(late), size);
            handle.force();
        }

        PartitionLog reopened = f.open(topic, 0);

        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(live);
        assertThat(readAll(reopened, 4)).first().isEqualTo(live.get(4)); // the read at 4 stops at the segment's end
    }

    @Test
    void aDeposedLeadersRollPastTheNewLeadersBaseIsIgnored() {
        List<byte[]> live = twoEpochs(5, 10);
        // the old leader rolled at offset 8 (it had written up to there in its own view), into its dead epoch
        writeSegment(new SegmentName(1, 8), List.of(stored(batch(1, 50, 0, random), 8, 1),
                stored(batch(1, 50, 0, random), 9, 1)));

        PartitionLog reopened = f.open(topic, 0);

        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(live);
        assertThat(reopened.offsets().highWatermark()).isEqualTo(15);
    }

    /** Epoch 1 writes {@code first} single-record batches, epoch 2 then {@code second}; returns what was stored. */
    private List<byte[]> twoEpochs(int first, int second) {
        List<byte[]> out = new ArrayList<>();
        f.epoch = 1;
        PartitionLog log = f.open(topic, 0);
        for (int i = 0; i < first; i++) {
            byte[] b = batch(1, 50, 0, random);
            out.add(stored(b, append(log, b, 0), 1));
        }
        f.close();
        f.epoch = 2;
        log = f.open(topic, 0);
        for (int i = 0; i < second; i++) {
            byte[] b = batch(1, 50, 0, random);
            out.add(stored(b, append(log, b, 0), 2));
        }
        f.close();
        return out;
    }

    private void writeSegment(SegmentName name, List<byte[]> batches) {
        try (var handle = f.sim.open(f.dir(topic, 0).resolve(name.logFile()), true)) {
            long position = 0;
            for (byte[] b : batches) {
                handle.write(ByteBuffer.wrap(b), position);
                position += b.length;
            }
            handle.force();
            f.sim.fsyncDirectory(f.dir(topic, 0));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private void writeManifest(Topic t, PartitionState.Manifest manifest) {
        try {
            f.sim.writeAtomically(f.dir(t, 0).resolve("manifest.json"), f.codec.encode(manifest));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
