package io.kaas.adapter.fs.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.AppendListener;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.batch.ControlBatch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.idempotence.VerificationGuard;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.txn.TxnMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transactions in both partition logs: the last stable offset, read_committed reads and the
 * aborted transactions they carry, markers, verification guards; and for the disk log, the
 * {@code .txnindex} across clean restarts, kills and power loss, segment rolls and retention.
 */
class TransactionalLogTest {
    private static final long A = 1_000L;
    private static final long B = 2_000L;
    private static final short EPOCH = 0;

    private final EngineFixture f = new EngineFixture();
    /** Small segments, so markers and transactions span several. */
    private final Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "600"));

    private PartitionLog log(String engine) {
        return engine.equals("disk") ? f.open(topic, 0)
                : new MemoryLogEngine(f.listener).open(topic, topic.partition(0), f.config(topic.configs()));
    }

    /** Stamped with the broker's time, as markers are: segments roll by size here, not by segment.ms. */
    private ByteBuffer txn(long pid, int seq, int records) {
        long now = f.clock.nowMs();
        return TestBatches.batch().transactional().producer(pid, EPOCH, seq).records(records).timestamps(now, now).build();
    }

    private ByteBuffer plain(int records) {
        long now = f.clock.nowMs();
        return TestBatches.batch().records(records).timestamps(now, now).build();
    }

    private long append(PartitionLog log, ByteBuffer batch) {
        AppendResult r = log.append(batch, f.clock.nowMs());
        assertThat(r).isInstanceOf(AppendResult.Appended.class);
        f.commit();
        return ((AppendResult.Appended) r).baseOffset();
    }

    private long marker(PartitionLog log, long pid, boolean commit) {
        AppendResult r = log.appendMarker(new TxnMarker(pid, EPOCH, 0, commit), f.clock.nowMs());
        assertThat(r).isInstanceOf(AppendResult.Appended.class);
        f.commit();
        assertThat(((AppendResult.Appended) r).durable()).isCompleted();
        return ((AppendResult.Appended) r).baseOffset();
    }

    /** read_committed from {@code from}: the aborted transactions reported, and where the read ended. */
    private static LogRead readCommitted(PartitionLog log, long from) {
        return log.read(from, 1 << 20, true, true);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "disk"})
    void theListenerHearsEachAppendWithItsSizeAndTheOffsetsItPublished(String engine) {
        List<AppendListener.Append> heard = new ArrayList<>();
        f.listener = heard::add;
        PartitionLog log = log(engine);
        ByteBuffer open = txn(A, 0, 2);
        int openSize = open.remaining();
        ByteBuffer plain = plain(1);
        int plainSize = plain.remaining();

        append(log, open); // 0..1, in A's open transaction
        append(log, plain); // 2
        marker(log, A, true); // 3: commits, the stable offset moves over all of it

        assertThat(heard).extracting(AppendListener.Append::partition).containsOnly(topic.partition(0));
        assertThat(heard).extracting(AppendListener.Append::baseOffset).containsExactly(0L, 2L, 3L);
        assertThat(heard).extracting(AppendListener.Append::offsets).containsExactly(
                new LogOffsets(0, 2, 2, 0), new LogOffsets(0, 3, 3, 0), new LogOffsets(0, 4, 4, 4));
        assertThat(heard).extracting(AppendListener.Append::sizeInBytes).containsExactly(openSize, plainSize,
                (int) log.sizeInBytes() - openSize - plainSize);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "disk"})
    void theStableOffsetWaitsForTheOldestOpenTransaction(String engine) {
        PartitionLog log = log(engine);
        append(log, plain(2));
        long aFirst = append(log, txn(A, 0, 3));
        append(log, txn(B, 0, 1));
        assertThat(log.offsets().lastStableOffset()).isEqualTo(aFirst);

        LogRead read = readCommitted(log, 0);
        assertThat(RecordBatchHeader.at(read.records().toByteBuffer()).lastOffset()).isEqualTo(1L);
        assertThat(TransactionsRead.endOffset(read)).as("nothing of the open transactions").isEqualTo(2L);
        assertThat(readCommitted(log, aFirst).sizeInBytes()).isZero();

        marker(log, A, true);
        assertThat(log.offsets().lastStableOffset()).as("B's transaction now").isEqualTo(5L);
        marker(log, B, false);
        assertThat(log.offsets().lastStableOffset()).isEqualTo(log.offsets().highWatermark()).isEqualTo(8L);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "disk"})
    void readCommittedCarriesTheAbortedTransactionsItOverlaps(String engine) {
        PartitionLog log = log(engine);
        long aFirst = append(log, txn(A, 0, 2));
        long bFirst = append(log, txn(B, 0, 2));
        long aAbort = marker(log, A, false);
        long bCommit = marker(log, B, true);
        long later = append(log, plain(1));

        List<AbortedTxn> all = collect(log, 0);
        assertThat(all).containsExactly(new AbortedTxn(A, aFirst, aAbort, bFirst));
        assertThat(collect(log, bCommit)).as("past the abort marker").isEmpty();
        assertThat(later).isGreaterThan(bCommit);
        assertThat(readCommitted(log, 0).records().toByteBuffer().remaining()).isPositive();
        assertThat(log.read(0, 1 << 20, true).abortedTransactions()).as("read_uncommitted: none").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "disk"})
    void markersAreControlBatchesWithTheProducersEpoch(String engine) {
        PartitionLog log = log(engine);
        append(log, txn(A, 0, 1));
        long at = marker(log, A, true);

        ByteBuffer stored = log.read(at, 1 << 20, true).records().toByteBuffer();
        RecordBatchHeader header = RecordBatchHeader.at(stored);
        assertThat(header.isControlBatch()).isTrue();
        assertThat(header.baseOffset()).isEqualTo(at);
        assertThat(header.producerId()).isEqualTo(A);
        assertThat(ControlBatch.decode(stored)).contains(new ControlBatch.Marker(ControlBatch.Type.COMMIT, 0));
        assertThat(log.appendMarker(new TxnMarker(A, (short) (EPOCH - 1), 0, false), 0L))
                .isEqualTo(new AppendResult.Rejected(KafkaError.INVALID_PRODUCER_EPOCH,
                        "Epoch of producer 1000 is -1, which is smaller than the last seen epoch 0"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory", "disk"})
    void aTransactionStartsOnlyWithACurrentVerification(String engine) {
        PartitionLog log = log(engine);
        VerificationGuard guard = log.beginVerification(A, 0L);
        log.appendMarker(new TxnMarker(A, EPOCH, 0, false), 0L); // an abort slipped in while verifying
        f.commit();

        AppendResult stale = log.append(txn(A, 0, 1), 0L, guard);
        AppendResult verified = log.append(txn(A, 0, 1), 0L, log.beginVerification(A, 0L));
        f.commit();

        assertThat(stale).isInstanceOf(AppendResult.Rejected.class);
        assertThat(((AppendResult.Rejected) stale).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(verified).isInstanceOf(AppendResult.Appended.class);
        assertThat(log.beginVerification(A, 0L)).isSameAs(VerificationGuard.NOT_REQUIRED);
        assertThat(log.producers()).singleElement().satisfies(p -> assertThat(p.currentTxnStartOffset()).isEqualTo(1L));
    }

    @Test
    void aMarkerIsFsyncedWhateverTheFlushSettings() {
        Topic lazy = EngineFixture.topic("lazy", 1, Map.of("flush.messages", "1000000"));
        PartitionLog log = f.open(lazy, 0);
        AppendResult data = log.append(txn(A, 0, 1), 0L);
        assertThat(((AppendResult.Appended) data).durable()).as("not flushed yet: a plain append").isCompleted();

        CompletableFuture<Void> durable = log.appendMarker(new TxnMarker(A, EPOCH, 0, true), 0L) instanceof
                AppendResult.Appended a ? a.durable().toCompletableFuture() : null;

        assertThat(durable).isNotNull().isNotDone();
        f.commit();
        assertThat(durable).isCompleted();
    }

    @Test
    void theAbortedIndexAndOpenTransactionsSurviveACleanRestart() {
        PartitionLog log = f.open(topic, 0);
        List<AbortedTxn> before = writeAbortsAcrossSegments(log);
        long openAt = append(log, txn(B, 0, 1));
        assertThat(f.segments(topic, 0)).as("several segments").hasSizeGreaterThan(2);

        f.close();
        PartitionLog reopened = f.open(topic, 0);

        assertThat(collect(reopened, 0)).containsExactlyElementsOf(before);
        assertThat(reopened.offsets().lastStableOffset()).as("B's transaction is still open").isEqualTo(openAt);
        marker(reopened, B, true);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(reopened.offsets().highWatermark());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kill", "crash"})
    void theAbortedIndexIsRebuiltAfterAnUncleanStop(String how) {
        PartitionLog log = f.open(topic, 0);
        List<AbortedTxn> before = writeAbortsAcrossSegments(log);
        long openAt = append(log, txn(B, 0, 1));
        // Damage the newest index as an unclean stop may: whatever it says past the snapshot is redone.
        SegmentName active = f.segments(topic, 0).get(f.segments(topic, 0).size() - 1);
        if (how.equals("kill")) {
            f.kill();
        } else {
            f.crash();
        }
        try (var handle = f.sim.open(f.dir(topic, 0).resolve(active.txnIndexFile()), true)) {
            handle.write(ByteBuffer.wrap(new byte[] {9, 9, 9}), handle.size());
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        PartitionLog reopened = f.open(topic, 0);

        assertThat(collect(reopened, 0)).containsExactlyElementsOf(before);
        assertThat(reopened.offsets().lastStableOffset()).isEqualTo(openAt);
    }

    @Test
    void retentionTakesTheIndexOfTheSegmentsItDrops() {
        PartitionLog log = f.open(topic, 0);
        writeAbortsAcrossSegments(log);
        SegmentName first = f.segments(topic, 0).get(0);
        assertThat(f.file(topic, 0, first.txnIndexFile())).isPresent();
        long logStart = f.segments(topic, 0).get(1).baseOffset();

        assertThat(log.deleteRecordsBefore(logStart)).isEqualTo(KafkaError.NONE);
        f.commit();

        assertThat(f.file(topic, 0, first.txnIndexFile())).isEmpty();
        assertThat(collect(log, logStart)).allSatisfy(t -> assertThat(t.lastOffset()).isGreaterThanOrEqualTo(logStart));
    }

    /** Aborted transactions of A, each a few batches, spread over several segments; their index entries. */
    private List<AbortedTxn> writeAbortsAcrossSegments(PartitionLog log) {
        List<AbortedTxn> aborted = new ArrayList<>();
        int seq = 0;
        for (int t = 0; t < 4; t++) {
            long first = append(log, txn(A, seq, 3));
            seq += 3;
            append(log, txn(A, seq, 3));
            seq += 3;
            long at = marker(log, A, false);
            aborted.add(new AbortedTxn(A, first, at, at + 1));
            append(log, plain(2));
        }
        return aborted;
    }

    /** Every aborted transaction a consumer reading from {@code from} to the end is told of. */
    private static List<AbortedTxn> collect(PartitionLog log, long from) {
        List<AbortedTxn> out = new ArrayList<>();
        long next = from;
        while (next < log.offsets().lastStableOffset()) {
            LogRead read = readCommitted(log, next);
            read.abortedTransactions().stream().filter(t -> !out.contains(t)).forEach(out::add);
            next = TransactionsRead.endOffset(read);
        }
        return out;
    }

    /** Where a read's batches end. */
    static final class TransactionsRead {
        static long endOffset(LogRead read) {
            List<byte[]> batches = Batches.split(read.records().toByteBuffer());
            return Batches.header(batches.get(batches.size() - 1)).lastOffset() + 1;
        }
    }
}
