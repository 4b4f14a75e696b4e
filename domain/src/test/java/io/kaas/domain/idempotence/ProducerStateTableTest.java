package io.kaas.domain.idempotence;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProducerStateTableTest {
    private static final long PID = 4_000L;
    private static final short EPOCH = 2;

    private final ProducerStateTable table = new ProducerStateTable();
    /** Next log offset, advanced by every recorded batch as a log would. */
    private long logEnd = 100;

    private static RecordBatchHeader batch(short epoch, int baseSequence, int records) {
        return RecordBatchHeader.at(TestBatches.idempotent(PID, epoch, baseSequence, records));
    }

    private SequenceCheck classify(short epoch, int baseSequence, int records) {
        return table.classify(batch(epoch, baseSequence, records));
    }

    /** Classifies and, when accepted, records the batch at the log end; returns its first offset. */
    private long append(short epoch, int baseSequence, int records) {
        RecordBatchHeader header = batch(epoch, baseSequence, records);
        assertThat(table.classify(header)).isEqualTo(SequenceCheck.ACCEPT);
        long first = logEnd;
        table.record(header, first, 0L);
        logEnd += records;
        return first;
    }

    private static KafkaError rejected(SequenceCheck check) {
        assertThat(check).isInstanceOf(SequenceCheck.Reject.class);
        return ((SequenceCheck.Reject) check).error();
    }

    @Test
    void unknownProducerMayStartAtAnySequence() {
        assertThat(classify(EPOCH, 0, 1)).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(classify(EPOCH, 12_345, 3)).isEqualTo(SequenceCheck.ACCEPT);
        append(EPOCH, 12_345, 3);
        assertThat(classify(EPOCH, 12_348, 1)).isEqualTo(SequenceCheck.ACCEPT);
    }

    @Test
    void acceptsBatchesInSequence() {
        append(EPOCH, 0, 3);
        append(EPOCH, 3, 1);
        assertThat(classify(EPOCH, 4, 10)).isEqualTo(SequenceCheck.ACCEPT);
    }

    @ParameterizedTest(name = "retry of batch {0} of 5")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void aRetryOfAnyOfTheLastFiveBatchesIsADuplicateWithItsOriginalOffset(int which) {
        long[] offsets = new long[5];
        for (int i = 0; i < 5; i++) {
            offsets[i] = append(EPOCH, i * 2, 2);
        }

        SequenceCheck check = classify(EPOCH, which * 2, 2);

        assertThat(check).isInstanceOf(SequenceCheck.Duplicate.class);
        BatchMetadata original = ((SequenceCheck.Duplicate) check).original();
        assertThat(original.firstOffset()).isEqualTo(offsets[which]);
        assertThat(original.firstSequence()).isEqualTo(which * 2);
        assertThat(original.lastSequence()).isEqualTo(which * 2 + 1);
        assertThat(original.lastOffset()).isEqualTo(offsets[which] + 1);
    }

    @Test
    void aRetryOlderThanTheWindowIsOutOfOrder() {
        for (int i = 0; i < ProducerWindow.CAPACITY + 1; i++) {
            append(EPOCH, i, 1);
        }
        assertThat(rejected(classify(EPOCH, 0, 1))).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(classify(EPOCH, 1, 1)).isInstanceOf(SequenceCheck.Duplicate.class);
    }

    @Test
    void aSequenceRangeThatOnlyPartlyMatchesIsNotADuplicate() {
        append(EPOCH, 0, 3);
        assertThat(rejected(classify(EPOCH, 0, 2))).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
    }

    @Test
    void aGapIsOutOfOrder() {
        append(EPOCH, 0, 3);
        SequenceCheck check = classify(EPOCH, 4, 1);
        assertThat(rejected(check)).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(((SequenceCheck.Reject) check).message()).contains("4 (incoming seq. number)", "2 (current end");
    }

    @Test
    void aLowerEpochIsInvalid() {
        append(EPOCH, 0, 1);
        assertThat(rejected(classify((short) (EPOCH - 1), 1, 1))).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
        assertThat(rejected(classify((short) (EPOCH - 1), 0, 1)))
                .as("even a retry of a known sequence").isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void aHigherEpochStartingAtZeroIsAcceptedAndResetsTheWindow() {
        append(EPOCH, 0, 1);
        append(EPOCH, 1, 1);
        short bumped = EPOCH + 1;

        long offset = append(bumped, 0, 1);

        assertThat(table.windows()).singleElement().satisfies(w -> {
            assertThat(w.epoch()).isEqualTo(bumped);
            assertThat(w.batches()).extracting(BatchMetadata::firstOffset).containsExactly(offset);
        });
        assertThat(classify(bumped, 1, 1)).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(classify(bumped, 0, 1)).isInstanceOf(SequenceCheck.Duplicate.class);
        assertThat(rejected(classify(EPOCH, 1, 1))).as("the old epoch is fenced").isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void aHigherEpochNotStartingAtZeroIsOutOfOrder() {
        append(EPOCH, 0, 1);
        assertThat(rejected(classify((short) (EPOCH + 1), 1, 1))).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
    }

    @Test
    void sequencesWrapFromIntegerMaxValueToZero() {
        append(EPOCH, Integer.MAX_VALUE - 1, 2); // sequences MAX_VALUE - 1, MAX_VALUE
        assertThat(classify(EPOCH, 0, 1)).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(rejected(classify(EPOCH, 1, 1))).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
    }

    @Test
    void aBatchSpanningTheWrapEndsAtItsWrappedLastSequence() {
        append(EPOCH, Integer.MAX_VALUE, 3); // sequences MAX_VALUE, 0, 1
        assertThat(classify(EPOCH, 2, 1)).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(classify(EPOCH, Integer.MAX_VALUE, 3)).isInstanceOf(SequenceCheck.Duplicate.class);
    }

    @Test
    void batchesWithoutAProducerIdAreAlwaysAcceptedAndNotRemembered() {
        ByteBuffer plain = TestBatches.plain(3);
        assertThat(table.classify(RecordBatchHeader.at(plain))).isEqualTo(SequenceCheck.ACCEPT);
        table.record(RecordBatchHeader.at(plain), 0L, 0L);
        assertThat(table.classify(RecordBatchHeader.at(plain))).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(table.windows()).isEmpty();
    }

    @Test
    void producersAreIndependent() {
        append(EPOCH, 0, 1);
        RecordBatchHeader other = RecordBatchHeader.at(TestBatches.idempotent(PID + 1, (short) 0, 7, 1));
        assertThat(table.classify(other)).isEqualTo(SequenceCheck.ACCEPT);
    }

    @Test
    void recordKeepsTheLastFiveBatchesAndTheAppendTime() {
        for (int i = 0; i < 7; i++) {
            RecordBatchHeader header = batch(EPOCH, i, 1);
            table.record(header, 10L + i, 1_000L + i);
        }
        ProducerWindow window = table.windows().iterator().next();
        assertThat(window.producerId()).isEqualTo(PID);
        assertThat(window.lastTimestamp()).isEqualTo(1_006L);
        assertThat(window.batches()).extracting(BatchMetadata::firstSequence).containsExactly(2, 3, 4, 5, 6);
    }

    @Test
    void restoredWindowsClassifyLikeTheOriginals() {
        append(EPOCH, 0, 2);
        long second = append(EPOCH, 2, 3);

        ProducerStateTable restored = new ProducerStateTable();
        // Rebuilt from plain values, as a snapshot on disk would be.
        restored.restore(table.windows().stream()
                .map(w -> ProducerWindow.restore(w.producerId(), w.epoch(), w.lastTimestamp(), w.batches()))
                .toList());

        SequenceCheck duplicate = restored.classify(batch(EPOCH, 2, 3));
        assertThat(duplicate).isInstanceOf(SequenceCheck.Duplicate.class);
        assertThat(((SequenceCheck.Duplicate) duplicate).original().firstOffset()).isEqualTo(second);
        assertThat(restored.classify(batch(EPOCH, 5, 1))).isEqualTo(SequenceCheck.ACCEPT);
        assertThat(rejected(restored.classify(batch(EPOCH, 6, 1)))).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(rejected(restored.classify(batch((short) (EPOCH - 1), 5, 1)))).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void restoreReplacesEverythingAndKeepsAtMostFiveBatches() {
        append(EPOCH, 0, 1);
        List<BatchMetadata> seven = IntStream.range(0, 7)
                .mapToObj(i -> new BatchMetadata(i, i, 50L + i, 0, 0L)).toList();

        table.restore(List.of(ProducerWindow.restore(PID + 1, (short) 0, 5L, seven)));

        assertThat(table.windows()).singleElement().satisfies(w -> {
            assertThat(w.producerId()).isEqualTo(PID + 1);
            assertThat(w.lastTimestamp()).isEqualTo(5L);
            assertThat(w.batches()).extracting(BatchMetadata::firstOffset).containsExactly(52L, 53L, 54L, 55L, 56L);
        });
        assertThat(classify(EPOCH, 5, 1)).as("the old producer's state is gone").isEqualTo(SequenceCheck.ACCEPT);
    }
}
