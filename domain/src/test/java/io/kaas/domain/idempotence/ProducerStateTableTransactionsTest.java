package io.kaas.domain.idempotence;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Transactions on one partition: what bounds the last stable offset, markers, verification, fencing. */
class ProducerStateTableTransactionsTest {
    private static final long PID = 7_000L;
    private static final long OTHER = 7_001L;
    private static final short EPOCH = 3;

    private final ProducerStateTable table = new ProducerStateTable();
    private long logEnd;

    private static RecordBatchHeader txnBatch(long pid, short epoch, int seq, int records) {
        return RecordBatchHeader.at(TestBatches.batch().transactional().producer(pid, epoch, seq).records(records).build());
    }

    /** Classifies (trusted) and records at the log end; returns the first offset. */
    private long append(RecordBatchHeader batch) {
        assertThat(table.classify(batch)).isEqualTo(SequenceCheck.ACCEPT);
        long first = logEnd;
        table.record(batch, first, 0L);
        logEnd += batch.lastOffsetDelta() + 1;
        return first;
    }

    private long marker(long pid, short epoch, boolean commit, List<CompletedTransaction> completed) {
        assertThat(table.classifyMarker(pid, epoch, 0)).isEqualTo(SequenceCheck.ACCEPT);
        long offset = logEnd++;
        table.recordMarker(pid, epoch, 0, commit, offset, 0L).ifPresent(completed::add);
        return offset;
    }

    private static KafkaError rejected(SequenceCheck check) {
        assertThat(check).isInstanceOf(SequenceCheck.Reject.class);
        return ((SequenceCheck.Reject) check).error();
    }

    @Test
    void theOldestTransactionInProgressBoundsTheStableOffset() {
        append(RecordBatchHeader.at(TestBatches.plain(2)));
        assertThat(table.firstUnstableOffset()).isEmpty();

        long first = append(txnBatch(PID, EPOCH, 0, 3));
        long second = append(txnBatch(OTHER, EPOCH, 0, 1));
        append(txnBatch(PID, EPOCH, 3, 1));

        assertThat(first).isEqualTo(2);
        assertThat(table.firstUnstableOffset()).hasValue(first);
        assertThat(table.hasOngoingTransaction(PID)).isTrue();

        List<CompletedTransaction> completed = new ArrayList<>();
        long commitAt = marker(PID, EPOCH, true, completed);
        assertThat(completed).containsExactly(new CompletedTransaction(PID, first, commitAt, false));
        assertThat(table.firstUnstableOffset()).hasValue(second);

        long abortAt = marker(OTHER, EPOCH, false, completed);
        assertThat(completed).last().isEqualTo(new CompletedTransaction(OTHER, second, abortAt, true));
        assertThat(table.firstUnstableOffset()).isEmpty();
    }

    @Test
    void aMarkerForAProducerWithNothingHereEndsNothing() {
        List<CompletedTransaction> completed = new ArrayList<>();
        marker(PID, EPOCH, true, completed);
        marker(PID, EPOCH, true, completed); // a retried marker

        assertThat(completed).isEmpty();
        assertThat(table.windows()).singleElement().satisfies(w -> {
            assertThat(w.epoch()).isEqualTo(EPOCH);
            assertThat(w.hasOngoingTransaction()).isFalse();
        });
    }

    @Test
    void aNonTransactionalWriteInsideATransactionIsInvalidTxnState() {
        append(txnBatch(PID, EPOCH, 0, 1));

        RecordBatchHeader plain = RecordBatchHeader.at(TestBatches.idempotent(PID, EPOCH, 1, 1));

        assertThat(rejected(table.classify(plain))).isEqualTo(KafkaError.INVALID_TXN_STATE);
    }

    @Test
    void aMarkerFromAnOlderEpochOrCoordinatorIsRefused() {
        append(txnBatch(PID, EPOCH, 0, 1));
        table.recordMarker(PID, EPOCH, 5, false, logEnd++, 0L);

        assertThat(rejected(table.classifyMarker(PID, (short) (EPOCH - 1), 5))).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
        assertThat(rejected(table.classifyMarker(PID, EPOCH, 4))).isEqualTo(KafkaError.TRANSACTION_COORDINATOR_FENCED);
        assertThat(table.classifyMarker(PID, EPOCH, 5)).isEqualTo(SequenceCheck.ACCEPT);
    }

    @Test
    void anAbortMarkerWithABumpedEpochFencesTheOldSession() {
        append(txnBatch(PID, EPOCH, 0, 2));
        List<CompletedTransaction> completed = new ArrayList<>();
        marker(PID, (short) (EPOCH + 1), false, completed);

        assertThat(completed).singleElement().satisfies(c -> assertThat(c.aborted()).isTrue());
        assertThat(rejected(table.classify(txnBatch(PID, EPOCH, 2, 1)))).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void startingATransactionNeedsTheCurrentVerification() {
        RecordBatchHeader first = txnBatch(PID, EPOCH, 0, 1);
        VerificationGuard stale = table.beginVerification(PID, 0L);
        table.recordMarker(PID, EPOCH, 0, false, logEnd++, 0L); // the transaction ended while verifying
        VerificationGuard current = table.beginVerification(PID, 0L);

        assertThat(rejected(table.classify(first, stale))).isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(rejected(table.classify(first, new VerificationGuard(0L)))).isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(table.classify(first, current)).isEqualTo(SequenceCheck.ACCEPT);
        table.record(first, logEnd, 0L);
        assertThat(table.beginVerification(PID, 0L)).as("in a transaction here: nothing to verify")
                .isSameAs(VerificationGuard.NOT_REQUIRED);
        assertThat(table.classify(txnBatch(PID, EPOCH, 1, 1), VerificationGuard.NOT_REQUIRED))
                .isEqualTo(SequenceCheck.ACCEPT);
    }

    @Test
    void aDuplicateIsRecognisedBeforeVerification() {
        RecordBatchHeader batch = txnBatch(PID, EPOCH, 0, 1);
        append(batch);
        table.recordMarker(PID, EPOCH, 0, true, logEnd++, 0L);

        // the marker cleared the window's transaction but not its batches: a late retry is still a duplicate
        assertThat(table.classify(batch, new VerificationGuard(0L))).isInstanceOf(SequenceCheck.Duplicate.class);
    }

    @Test
    void aFenceAdvancesKnownProducersOnly() {
        append(RecordBatchHeader.at(TestBatches.idempotent(PID, EPOCH, 0, 1)));

        table.fence(PID, (short) (EPOCH + 2));
        table.fence(OTHER, (short) 9);

        assertThat(rejected(table.classify(RecordBatchHeader.at(TestBatches.idempotent(PID, EPOCH, 1, 1)))))
                .isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
        assertThat(table.classify(RecordBatchHeader.at(TestBatches.idempotent(PID, (short) (EPOCH + 2), 0, 1))))
                .isEqualTo(SequenceCheck.ACCEPT);
        assertThat(table.windows()).extracting(ProducerWindow::producerId).containsExactly(PID);
    }

    @Test
    void restoringASnapshotRestoresTransactionsInProgress() {
        long first = append(txnBatch(PID, EPOCH, 0, 2));
        table.recordMarker(OTHER, EPOCH, 4, true, logEnd++, 0L);

        ProducerStateTable restored = new ProducerStateTable();
        restored.restore(table.windows().stream().map(w -> ProducerWindow.restore(w.producerId(), w.epoch(),
                w.lastTimestamp(), w.describedTimestamp(), w.batches(), w.currentTxnFirstOffset(),
                w.coordinatorEpoch())).toList());

        assertThat(restored.firstUnstableOffset()).hasValue(first);
        assertThat(restored.hasOngoingTransaction(PID)).isTrue();
        assertThat(rejected(restored.classifyMarker(OTHER, EPOCH, 3))).isEqualTo(KafkaError.TRANSACTION_COORDINATOR_FENCED);
    }

    @Test
    void idleProducersExpireButNotOneWithATransactionInProgress() {
        long expiration = 1_000;
        RecordBatchHeader idle = RecordBatchHeader.at(TestBatches.idempotent(OTHER, EPOCH, 0, 2));
        table.record(idle, logEnd, 100L);
        logEnd += 2;
        table.record(txnBatch(PID, EPOCH, 0, 1), logEnd++, 100L);

        assertThat(table.expireIdle(100 + expiration - 1, expiration)).as("idle just under the limit").isZero();
        assertThat(table.expireIdle(100 + expiration, expiration)).as("only the one with no transaction").isEqualTo(1);
        assertThat(table.windows()).extracting(ProducerWindow::producerId).containsExactly(PID);
        assertThat(table.firstUnstableOffset()).as("the transaction still bounds the LSO").hasValue(2L);
        assertThat(table.classify(RecordBatchHeader.at(TestBatches.idempotent(OTHER, EPOCH, 2, 1))))
                .as("an expired producer's next batch is accepted as from a new producer")
                .isEqualTo(SequenceCheck.ACCEPT);

        List<CompletedTransaction> completed = new ArrayList<>();
        logEnd = 3;
        table.recordMarker(PID, EPOCH, 0, true, logEnd++, 500L).ifPresent(completed::add);
        assertThat(completed).hasSize(1);
        assertThat(table.expireIdle(500 + expiration - 1, expiration)).as("the marker counts as activity").isZero();
        assertThat(table.expireIdle(500 + expiration, expiration)).isEqualTo(1);
        assertThat(table.windows()).isEmpty();
    }

    @Test
    void anUnusedVerificationExpiresLikeAnIdleProducer() {
        VerificationGuard handedOut = table.beginVerification(PID, 1_000L);
        table.expireIdle(1_000L + 59_999, 60_000);
        assertThat(table.beginVerification(PID, 61_000L)).as("still current just before").isSameAs(handedOut);

        table.expireIdle(1_000L + 60_000, 60_000);

        assertThat(rejected(table.classify(txnBatch(PID, EPOCH, 0, 1), handedOut)))
                .as("a batch carrying the expired guard is no longer verified").isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(table.beginVerification(PID, 61_000L)).as("a fresh verification").isNotSameAs(handedOut);
    }

    @Test
    void describeReportsTheLastBatchTimestampOrTheMarkerTimeAsApacheDoes() {
        RecordBatchHeader batch = RecordBatchHeader.at(TestBatches.batch().transactional().producer(PID, EPOCH, 0)
                .records(2).timestamps(1_000L, 1_500L).build());
        table.record(batch, logEnd, 99_000L);
        logEnd += 2;
        ProducerWindow afterBatch = table.windows().iterator().next();
        assertThat(afterBatch.describedTimestamp()).as("the batch's largest timestamp").isEqualTo(1_500L);
        assertThat(afterBatch.lastTimestamp()).as("expiry keeps counting on the broker's clock").isEqualTo(99_000L);

        table.recordMarker(PID, EPOCH, 0, true, logEnd++, 120_000L);

        assertThat(table.windows().iterator().next().describedTimestamp()).as("the marker's time").isEqualTo(120_000L);
    }
}
