package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.HeaderStampedRecords;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MemoryPartitionLogTest {
    private static final Topic TOPIC = new Topic("t", new UUID(1L, 1L), 2, Map.of());
    private static final TopicPartition TP = TOPIC.partition(0);
    private static final long NOW = 1_700_000_000_000L;
    private static final HeaderStampedRecords RECORDS = new HeaderStampedRecords();

    private final List<TopicPartition> appended = new ArrayList<>();
    private final MemoryLogEngine engine = new MemoryLogEngine(append -> appended.add(append.partition()));
    private final PartitionLog log = engine.open(TOPIC, TP, LogConfig.DEFAULTS);

    private long append(ByteBuffer batch) {
        AppendResult result = log.append(batch, NOW);
        assertThat(result).isInstanceOf(AppendResult.Appended.class);
        return ((AppendResult.Appended) result).baseOffset();
    }

    /** What the log should store: the batch with its base offset rewritten and leader epoch 0. */
    private static ByteBuffer stored(ByteBuffer sent, long baseOffset) {
        ByteBuffer copy = ByteBuffer.allocate(sent.remaining()).put(sent.duplicate()).flip();
        RecordBatchHeader.at(copy).setBaseOffset(baseOffset);
        RecordBatchHeader.at(copy).setPartitionLeaderEpoch(0);
        return copy;
    }

    private static ByteBuffer concat(ByteBuffer... parts) {
        int size = 0;
        for (ByteBuffer p : parts) {
            size += p.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer p : parts) {
            out.put(p.duplicate());
        }
        return out.flip();
    }

    private static List<Long> baseOffsets(LogRead read) {
        List<Long> offsets = new ArrayList<>();
        ByteBuffer records = read.records().toByteBuffer();
        for (int at = records.position(); at < records.limit(); at += RecordBatchHeader.at(records, at).sizeInBytes()) {
            offsets.add(RecordBatchHeader.at(records, at).baseOffset());
        }
        return offsets;
    }

    @Test
    void assignsContiguousOffsetsAndStoresTheBytesWithOnlyOffsetAndEpochRewritten() {
        ByteBuffer a = TestBatches.batch().baseOffset(777).records(1).build();
        ByteBuffer b = TestBatches.batch().baseOffset(777).partitionLeaderEpoch(9).records(3).build();
        ByteBuffer c = TestBatches.batch().records(2).build();

        assertThat(append(a)).isZero();
        assertThat(append(b)).isEqualTo(1);
        assertThat(append(c)).isEqualTo(4);

        assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 6, 6));
        LogRead read = log.read(0, Integer.MAX_VALUE, false);
        assertThat(read.error()).isEqualTo(KafkaError.NONE);
        assertThat(read.offsets()).isEqualTo(new LogOffsets(0, 6, 6));
        assertThat(read.records().toByteBuffer()).isEqualTo(concat(stored(a, 0), stored(b, 1), stored(c, 4)));
        assertThat(RecordBatchHeader.at(read.records().toByteBuffer()).computeCrc()).isEqualTo(RecordBatchHeader.at(read.records().toByteBuffer()).storedCrc());
    }

    @Test
    void appendLeavesTheCallersBufferPositionAlone() {
        ByteBuffer a = TestBatches.plain(1);
        append(a);
        assertThat(a.position()).isZero();
        assertThat(a.remaining()).isEqualTo(RecordBatchHeader.HEADER_SIZE + TestBatches.BYTES_PER_RECORD);
    }

    @Test
    void appendedResultCarriesCreateTimeAndLogStart() {
        AppendResult result = log.append(TestBatches.plain(1), NOW);
        assertThat(result).isInstanceOfSatisfying(AppendResult.Appended.class, a -> {
            assertThat(a.logAppendTimeMs()).isEqualTo(-1L);
            assertThat(a.logStartOffset()).isZero();
            assertThat(a.durable().toCompletableFuture()).isCompleted();
        });
    }

    @Test
    void readingFromTheMiddleOfABatchReturnsTheWholeBatch() {
        append(TestBatches.plain(2));
        ByteBuffer second = TestBatches.plain(3);
        append(second); // offsets 2..4
        append(TestBatches.plain(1));

        LogRead read = log.read(3, Integer.MAX_VALUE, false);

        assertThat(baseOffsets(read)).containsExactly(2L, 5L);
        assertThat(read.records().toByteBuffer().duplicate().limit(second.remaining())).isEqualTo(stored(second, 2));
    }

    @Test
    void maxBytesStopsBeforeTheBatchThatWouldExceedIt() {
        int size = TestBatches.plain(1).remaining();
        for (int i = 0; i < 3; i++) {
            append(TestBatches.plain(1));
        }

        assertThat(baseOffsets(log.read(0, 2 * size, false))).containsExactly(0L, 1L);
        assertThat(baseOffsets(log.read(0, 2 * size - 1, false))).containsExactly(0L);
        assertThat(baseOffsets(log.read(1, 3 * size, false))).containsExactly(1L, 2L);
    }

    @Test
    void aFirstBatchLargerThanMaxBytesIsReturnedOnlyWithMinOneBatch() {
        ByteBuffer big = TestBatches.batch().sizeInBytes(500).build();
        append(big);
        append(TestBatches.plain(1));

        LogRead without = log.read(0, 499, false);
        assertThat(without.error()).isEqualTo(KafkaError.NONE);
        assertThat(without.sizeInBytes()).isZero();

        LogRead with = log.read(0, 499, true);
        assertThat(with.records().toByteBuffer()).isEqualTo(stored(big, 0));
        assertThat(baseOffsets(log.read(0, 0, true))).as("KIP-74: one batch even at maxBytes 0").containsExactly(0L);
    }

    @Test
    void readsStopAtTheArenaBoundaryAndContinueOnTheNextCall() {
        int size = MemoryPartitionLog.ARENA_BYTES / 4 + 1; // three fit in an arena, the fourth does not
        for (int i = 0; i < 5; i++) {
            append(TestBatches.batch().sizeInBytes(size).build());
        }

        LogRead first = log.read(0, Integer.MAX_VALUE, false);
        assertThat(baseOffsets(first)).containsExactly(0L, 1L, 2L);

        LogRead next = log.read(3, Integer.MAX_VALUE, false);
        assertThat(baseOffsets(next)).containsExactly(3L, 4L);
    }

    @Test
    void aBatchLargerThanAnArenaIsStoredWhole() {
        ByteBuffer huge = TestBatches.batch().sizeInBytes(MemoryPartitionLog.ARENA_BYTES + 100).build();
        append(TestBatches.plain(1));
        append(huge);
        append(TestBatches.plain(1));

        assertThat(log.read(1, Integer.MAX_VALUE, false).records().toByteBuffer()).isEqualTo(stored(huge, 1));
        assertThat(baseOffsets(log.read(2, Integer.MAX_VALUE, false))).containsExactly(2L);
    }

    @Test
    void offsetsOutsideTheLogAreOutOfRange() {
        append(TestBatches.plain(2));

        LogRead above = log.read(3, Integer.MAX_VALUE, true);
        assertThat(above.error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(above.offsets()).isEqualTo(new LogOffsets(0, 2, 2));
        assertThat(above.sizeInBytes()).isZero();

        assertThat(log.read(-1, Integer.MAX_VALUE, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
    }

    @Test
    void offsetsBelowTheLogStartAreOutOfRange() {
        append(TestBatches.plain(2)); // 0..1
        append(TestBatches.plain(2)); // 2..3
        assertThat(log.deleteRecordsBefore(2)).isEqualTo(KafkaError.NONE);
        assertThat(log.offsets()).isEqualTo(new LogOffsets(2, 4, 4));

        LogRead below = log.read(1, Integer.MAX_VALUE, true);
        assertThat(below.error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(below.offsets()).isEqualTo(new LogOffsets(2, 4, 4));
        assertThat(baseOffsets(log.read(2, Integer.MAX_VALUE, false))).containsExactly(2L);
    }

    @Test
    void readingAtTheHighWatermarkIsEmpty() {
        LogRead emptyLog = log.read(0, Integer.MAX_VALUE, true);
        assertThat(emptyLog.error()).isEqualTo(KafkaError.NONE);
        assertThat(emptyLog.sizeInBytes()).isZero();
        assertThat(emptyLog.offsets()).isEqualTo(LogOffsets.EMPTY);

        append(TestBatches.plain(2));
        LogRead atEnd = log.read(2, Integer.MAX_VALUE, true);
        assertThat(atEnd.error()).isEqualTo(KafkaError.NONE);
        assertThat(atEnd.sizeInBytes()).isZero();
    }

    @Test
    void aDuplicateWritesNothingAndReturnsTheOriginalOffset() {
        append(TestBatches.plain(1));
        long original = append(TestBatches.idempotent(10L, (short) 0, 0, 2));
        append(TestBatches.plain(1));

        AppendResult retry = log.append(TestBatches.idempotent(10L, (short) 0, 0, 2), NOW);

        assertThat(retry).isEqualTo(new AppendResult.Duplicate(original, 0));
        assertThat(log.offsets().logEndOffset()).isEqualTo(4);
        assertThat(baseOffsets(log.read(0, Integer.MAX_VALUE, false))).containsExactly(0L, 1L, 3L);
        assertThat(appended).hasSize(3);
    }

    @Test
    void aRejectedBatchWritesNothing() {
        append(TestBatches.idempotent(10L, (short) 3, 0, 1));

        AppendResult gap = log.append(TestBatches.idempotent(10L, (short) 3, 5, 1), NOW);
        AppendResult fenced = log.append(TestBatches.idempotent(10L, (short) 2, 1, 1), NOW);

        assertThat(gap).isInstanceOfSatisfying(AppendResult.Rejected.class,
                r -> assertThat(r.error()).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER));
        assertThat(fenced).isInstanceOfSatisfying(AppendResult.Rejected.class,
                r -> assertThat(r.error()).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH));
        assertThat(log.offsets()).isEqualTo(new LogOffsets(0, 1, 1));
        assertThat(baseOffsets(log.read(0, Integer.MAX_VALUE, false))).containsExactly(0L);
        assertThat(appended).hasSize(1);
    }

    @Test
    void theListenerHearsOfEverySuccessfulAppendOnce() {
        append(TestBatches.plain(1));
        append(TestBatches.plain(5));
        assertThat(appended).containsExactly(TP, TP);
    }

    @Test
    void aTimestampLookupNeverAnswersBelowTheLogStart() {
        append(TestBatches.batch().records(5).timestamps(100, 100).build()); // 0..4
        append(TestBatches.batch().records(5).timestamps(200, 200).build()); // 5..9

        assertThat(log.deleteRecordsBefore(3)).isEqualTo(KafkaError.NONE);

        assertThat(log.offsetForTimestamp(50, RECORDS)).contains(new TimestampOffset(100, 3));
        assertThat(log.offsetForTimestamp(150, RECORDS)).contains(new TimestampOffset(200, 5));
        assertThat(log.offsetForTimestamp(250, RECORDS)).isEmpty();
    }

    @Test
    void offsetForTimestampFindsTheFirstRecordReachingIt() {
        append(TestBatches.batch().records(2).timestamps(90, 100).build());  // 0..1: 90, 100
        append(TestBatches.batch().records(3).timestamps(250, 300).build()); // 2..4: 250, 251, 300
        append(TestBatches.batch().records(1).timestamps(200, 200).build()); // 5

        assertThat(log.offsetForTimestamp(0, RECORDS)).contains(new TimestampOffset(90, 0));
        assertThat(log.offsetForTimestamp(100, RECORDS)).contains(new TimestampOffset(100, 1));
        assertThat(log.offsetForTimestamp(101, RECORDS)).contains(new TimestampOffset(250, 2));
        assertThat(log.offsetForTimestamp(251, RECORDS)).contains(new TimestampOffset(251, 3));
        assertThat(log.offsetForTimestamp(252, RECORDS)).contains(new TimestampOffset(300, 4));
        assertThat(log.offsetForTimestamp(300, RECORDS)).contains(new TimestampOffset(300, 4));
        assertThat(log.offsetForTimestamp(301, RECORDS)).isEmpty();
    }

    @Test
    void maxTimestampIsTheLastOffsetOfTheFirstBatchHoldingIt() {
        assertThat(log.maxTimestamp()).isEmpty();

        append(TestBatches.batch().records(2).timestamps(90, 100).build());  // 0..1
        append(TestBatches.batch().records(3).timestamps(250, 300).build()); // 2..4
        append(TestBatches.batch().records(1).timestamps(200, 200).build()); // 5
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(300, 4));

        append(TestBatches.batch().records(2).timestamps(300, 300).build()); // 6..7, a tie: the first one wins, as in Apache
        assertThat(log.maxTimestamp()).contains(new TimestampOffset(300, 4));
    }

    @Test
    void theEngineOpensOneLogPerPartitionAndDeleteDropsThem() {
        PartitionLog other = engine.open(TOPIC, TOPIC.partition(1), LogConfig.DEFAULTS);
        assertThat(engine.open(TOPIC, TP, LogConfig.DEFAULTS)).isSameAs(log);
        assertThat(other).isNotSameAs(log);
        assertThat(other.topicPartition()).isEqualTo(TOPIC.partition(1));
        append(TestBatches.plain(1));

        engine.delete(TOPIC);

        PartitionLog reopened = engine.open(TOPIC, TP, LogConfig.DEFAULTS);
        assertThat(reopened).isNotSameAs(log);
        assertThat(reopened.offsets()).isEqualTo(LogOffsets.EMPTY);
    }
}
