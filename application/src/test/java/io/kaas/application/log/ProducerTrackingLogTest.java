package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The append sequence both logs share, driven through a log whose own steps the test scripts: the
 * failure paths need neither a faulty filesystem nor a broken disk log to be reached.
 */
class ProducerTrackingLogTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final long NOW = 1_700_000_000_000L;
    private static final long PID = 42L;
    private static final short EPOCH = 3;

    private final List<AppendListener.Append> notices = new ArrayList<>();
    private final ScriptedLog log = new ScriptedLog(notices::add);

    @Test
    void aStorageFailureIsTheAnswerAndLeavesTheProducerStateAsItWas() {
        ByteBuffer batch = TestBatches.idempotent(PID, EPOCH, 0, 2);
        log.storeFails = new IOException("cannot write t-0: no space left");

        assertThat(log.append(batch.duplicate(), NOW))
                .isEqualTo(new AppendResult.Rejected(KafkaError.KAFKA_STORAGE_ERROR, "cannot write t-0: no space left"));
        assertThat(notices).isEmpty();

        log.storeFails = null;
        AppendResult retry = log.append(batch.duplicate(), NOW);
        assertThat(retry).isInstanceOf(AppendResult.Appended.class); // not a duplicate: nothing was recorded
        assertThat(((AppendResult.Appended) retry).baseOffset()).isZero();
    }

    @Test
    void aRefusalFoundWhileStoringAnswersItsError() {
        log.storeFails = new KafkaException(KafkaError.NOT_LEADER_OR_FOLLOWER, "t-0 was taken over");

        assertThat(log.append(TestBatches.plain(1), NOW))
                .isEqualTo(new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, "t-0 was taken over"));
        assertThat(notices).isEmpty();
    }

    @Test
    void aRefusingLogStoresNothingAndClassifiesNothing() {
        AppendResult.Rejected closed = new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, "closed");
        log.refusal = closed;

        assertThat(log.append(TestBatches.idempotent(PID, EPOCH, 0, 1), NOW)).isEqualTo(closed);
        assertThat(log.appendMarker(new TxnMarker(PID, EPOCH, 0, true), NOW)).isEqualTo(closed);
        assertThat(log.stored).isEmpty();
        assertThat(log.producers()).isEmpty();
        assertThat(notices).isEmpty();
    }

    @Test
    void aDuplicateAnswersTheOriginalOffsetAndTheLogStartWithoutStoringOrNotifying() {
        ByteBuffer batch = TestBatches.idempotent(PID, EPOCH, 0, 2);
        log.append(TestBatches.plain(5), NOW);
        log.append(batch.duplicate(), NOW);
        log.logStart = 3;

        assertThat(log.append(batch.duplicate(), NOW)).isEqualTo(new AppendResult.Duplicate(5, 3));
        assertThat(log.stored).hasSize(2);
        assertThat(notices).hasSize(2);
    }

    @Test
    void theListenerHearsOfEachAppendOutsideThePartitionLock() {
        List<Boolean> lockHeld = new ArrayList<>();
        ScriptedLog[] watched = new ScriptedLog[1];
        watched[0] = new ScriptedLog(append -> lockHeld.add(Thread.holdsLock(watched[0])));

        watched[0].append(TestBatches.plain(2), NOW);
        watched[0].appendMarker(new TxnMarker(PID, EPOCH, 0, true), NOW);

        assertThat(lockHeld).containsExactly(false, false);
    }

    @Test
    void recordsAskForDurabilityAsRecordsAndMarkersAsMarkers() {
        log.append(TestBatches.plain(2), NOW);
        log.appendMarker(new TxnMarker(PID, EPOCH, 0, false), NOW);

        assertThat(log.durabilityAsked).containsExactly(false, true);
        assertThat(notices).extracting(AppendListener.Append::baseOffset).containsExactly(0L, 2L);
        assertThat(notices.get(1).offsets()).isEqualTo(new LogOffsets(0, 3, 3));
    }

    @Test
    void anAbortWhoseIndexEntryCannotBeWrittenAnswersTheLogsVerdictAndNotifiesNobody() {
        log.append(TestBatches.batch().producer(PID, EPOCH, 0).transactional().records(2).build(), NOW);
        AppendResult.Rejected unindexed = new AppendResult.Rejected(KafkaError.KAFKA_STORAGE_ERROR, "no txnindex");
        log.indexFails = unindexed;

        assertThat(log.appendMarker(new TxnMarker(PID, EPOCH, 0, false), NOW)).isEqualTo(unindexed);
        assertThat(log.stored).hasSize(2); // the marker is in the log
        assertThat(log.indexed).containsExactly(new AbortedTxn(PID, 0, 2, 3));
        assertThat(log.durabilityAsked).containsExactly(false);
        assertThat(notices).hasSize(1);
    }

    @Test
    void aCommitEntersNothingInTheAbortedIndex() {
        log.append(TestBatches.batch().producer(PID, EPOCH, 0).transactional().records(2).build(), NOW);

        log.appendMarker(new TxnMarker(PID, EPOCH, 0, true), NOW);

        assertThat(log.indexed).isEmpty();
    }

    /** A log that stores headers in a list and fails where the test says. */
    private static final class ScriptedLog extends ProducerTrackingLog {
        final List<RecordBatchHeader> stored = new ArrayList<>();
        final List<AbortedTxn> indexed = new ArrayList<>();
        final List<Boolean> durabilityAsked = new ArrayList<>();
        AppendResult refusal;
        Exception storeFails;
        AppendResult indexFails;
        long logStart;
        long end;

        ScriptedLog(AppendListener listener) {
            super(new ProducerStateTable(), listener);
        }

        @Override
        protected AppendResult refusal() {
            return refusal;
        }

        @Override
        protected long logStartOffset() {
            return logStart;
        }

        @Override
        protected RecordBatchHeader storeAtEnd(ByteBuffer batch, RecordBatchHeader header, long nowMs)
                throws IOException {
            if (storeFails instanceof IOException e) {
                throw e;
            }
            if (storeFails instanceof KafkaException e) {
                throw e;
            }
            header.setBaseOffset(end);
            end = header.lastOffset() + 1;
            stored.add(header);
            return header;
        }

        @Override
        protected AppendResult indexAborted(AbortedTxn entry) {
            indexed.add(entry);
            return indexFails;
        }

        @Override
        protected AppendListener.Append publishAppend(RecordBatchHeader stored, int size) {
            return new AppendListener.Append(TP, stored.baseOffset(), size, new LogOffsets(logStart, end, end));
        }

        @Override
        protected CompletionStage<Void> durable(RecordBatchHeader stored, boolean marker, long nowMs) {
            durabilityAsked.add(marker);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public TopicPartition topicPartition() {
            return TP;
        }

        @Override
        public AppendQueue appendQueue() {
            return new AppendQueue(Runnable::run);
        }

        @Override
        public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LogOffsets offsets() {
            return new LogOffsets(logStart, end, end);
        }

        @Override
        public Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records) {
            return Optional.empty();
        }

        @Override
        public Optional<TimestampOffset> maxTimestamp() {
            return Optional.empty();
        }

        @Override
        public long sizeInBytes() {
            return 0;
        }

        @Override
        public int leaderEpoch() {
            return 0;
        }

        @Override
        public KafkaError deleteRecordsBefore(long offset) {
            return KafkaError.NONE;
        }

        @Override
        public void applyRetention(long nowMs) {
        }

        @Override
        public void updateConfig(LogConfig config) {
        }
    }
}
