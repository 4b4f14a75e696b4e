package io.kaas.domain.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.compaction.CleanableRange.SegmentSummary;
import io.kaas.domain.compaction.CompactionFilter.BatchRetention;
import io.kaas.domain.log.AbortedTxn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CompactionDecisionsTest {
    private static final long NOW = 1_000_000L;
    private static final CompactionSettings SETTINGS = new CompactionSettings(0.5, 0, Long.MAX_VALUE, 1000);
    private static final List<SegmentSummary> SEGMENTS = List.of(new SegmentSummary(0, 100, NOW - 50, NOW - 90),
            new SegmentSummary(10, 100, NOW - 40, NOW - 45), new SegmentSummary(20, 100, NOW - 5, NOW - 10));

    @Test
    void theDirtyPartRunsFromTheCheckpointToTheActiveSegment() {
        CleanableRange range = CleanableRange.of(SEGMENTS, 30, 0, 35, 10, OptionalLong.empty(), NOW, SETTINGS);
        assertThat(range).isEqualTo(new CleanableRange(10, 30, 100, 200, false));
        assertThat(range.due(SETTINGS)).as("2/3 dirty, above 0.5").isTrue();
        assertThat(range.due(new CompactionSettings(0.7, 0, Long.MAX_VALUE, 1000))).isFalse();
    }

    @Test
    void anOpenTransactionAndTheMinimumLagBoundIt() {
        assertThat(CleanableRange.of(SEGMENTS, 30, 0, 35, -1, OptionalLong.of(15), NOW, SETTINGS)
                .firstUncleanableOffset()).isEqualTo(15);
        CleanableRange lagged = CleanableRange.of(SEGMENTS, 30, 0, 35, -1, OptionalLong.empty(), NOW,
                new CompactionSettings(0.5, 20, Long.MAX_VALUE, 1000));
        assertThat(lagged.firstUncleanableOffset()).as("segment 20 holds a record younger than 20 ms").isEqualTo(20);
    }

    @Test
    void aRecordOlderThanTheMaximumLagMakesTheLogDueWhateverItsRatio() {
        CompactionSettings strict = new CompactionSettings(0.99, 0, 30, 1000);
        CleanableRange range = CleanableRange.of(SEGMENTS, 30, 0, 35, 20, OptionalLong.empty(), NOW, strict);
        assertThat(range.compactionOverdue()).isFalse(); // segment 20 began 10 ms ago
        range = CleanableRange.of(SEGMENTS, 30, 0, 35, 10, OptionalLong.empty(), NOW, strict);
        assertThat(range.compactionOverdue()).as("segment 10 began 45 ms ago").isTrue();
        assertThat(range.due(strict)).isTrue();
    }

    @Test
    void theLatestRecordOfEachKeyStaysAndTombstonesGoAfterTheirHorizon() {
        KeyOffsetMap map = new KeyOffsetMap(10);
        map.put(key("a"), 5);
        map.put(key("b"), 6);
        map.updateLatestOffset(6);
        CompactionFilter filter = new CompactionFilter(map, new CleanedTransactions(List.of()), Map.of(), NOW);
        StoredBatch plain = batch(0, 9, -1, false, StoredBatch.Marker.NONE, OptionalLong.empty());
        assertThat(filter.batch(plain).retention()).isEqualTo(BatchRetention.DELETE_EMPTY);
        assertThat(filter.retainRecord(plain, 1, key("a"), true)).as("superseded").isFalse();
        assertThat(filter.retainRecord(plain, 5, key("a"), true)).isTrue();
        assertThat(filter.retainRecord(plain, 6, key("b"), false)).as("a tombstone before any horizon").isTrue();
        assertThat(filter.retainRecord(plain, 7, key("c"), true)).as("past the map").isTrue();
        StoredBatch expired = batch(0, 9, -1, false, StoredBatch.Marker.NONE, OptionalLong.of(NOW));
        filter.batch(expired);
        assertThat(filter.retainRecord(expired, 6, key("b"), false)).as("horizon passed").isFalse();
        assertThat(filter.retainRecord(expired, 5, key("a"), true)).as("its batch's values stay").isTrue();
    }

    @Test
    void anAbortedTransactionsRecordsGoAndItsMarkerStaysUntilNoneIsLeftAndItsHorizonPassed() {
        AbortedTxn aborted = new AbortedTxn(7, 10, 12, 10);
        KeyOffsetMap map = new KeyOffsetMap(10);
        map.updateLatestOffset(20);
        CompactionFilter first = new CompactionFilter(map, new CleanedTransactions(List.of(aborted)), Map.of(), NOW);
        StoredBatch records = batch(10, 11, 7, true, StoredBatch.Marker.NONE, OptionalLong.empty());
        StoredBatch marker = batch(12, 12, 7, true, StoredBatch.Marker.ABORT, OptionalLong.empty());
        assertThat(first.batch(records).retention()).isEqualTo(BatchRetention.DELETE);
        assertThat(first.batch(marker)).as("its records were still there")
                .isEqualTo(new CompactionFilter.BatchDecision(BatchRetention.DELETE_EMPTY, false));

        CompactionFilter second = new CompactionFilter(map, new CleanedTransactions(List.of(aborted)), Map.of(), NOW);
        assertThat(second.batch(marker)).as("no record left: stamp a horizon, keep it")
                .isEqualTo(new CompactionFilter.BatchDecision(BatchRetention.DELETE_EMPTY, true));
        StoredBatch stamped = batch(12, 12, 7, true, StoredBatch.Marker.ABORT, OptionalLong.of(NOW));
        CompactionFilter third = new CompactionFilter(map, new CleanedTransactions(List.of(aborted)), Map.of(), NOW);
        assertThat(third.batch(stamped).retention()).isEqualTo(BatchRetention.DELETE);
    }

    @Test
    void anActiveProducersLastBatchIsKeptEmpty() {
        KeyOffsetMap map = new KeyOffsetMap(10);
        map.updateLatestOffset(20);
        CompactionFilter filter = new CompactionFilter(map, new CleanedTransactions(List.of()),
                Map.of(3L, new CompactionFilter.LastRecord(OptionalLong.of(9), (short) 0)), NOW);
        assertThat(filter.batch(batch(5, 9, 3, false, StoredBatch.Marker.NONE, OptionalLong.empty())).retention())
                .isEqualTo(BatchRetention.RETAIN_EMPTY);
    }

    @Test
    void theOffsetMapSkipsAbortedRecordsAndStopsWhenFull() {
        KeyOffsetMap map = new KeyOffsetMap(2);
        OffsetMapBuilder builder = new OffsetMapBuilder(map,
                new CleanedTransactions(List.of(new AbortedTxn(7, 0, 2, 0))), 0, 100);
        StoredBatch aborted = batch(0, 1, 7, true, StoredBatch.Marker.NONE, OptionalLong.empty());
        assertThat(builder.startBatch(aborted)).isFalse();
        assertThat(builder.endBatch(aborted)).isTrue();
        StoredBatch plain = batch(3, 5, -1, false, StoredBatch.Marker.NONE, OptionalLong.empty());
        assertThat(builder.startBatch(plain)).isTrue();
        builder.record(3, key("a"));
        builder.record(4, key("b"));
        builder.record(5, key("c"));
        assertThat(builder.endBatch(plain)).as("full in this batch").isFalse();
        assertThat(map.latestOffset()).as("covers only whole batches").isEqualTo(1);
        assertThat(map.get(key("b"))).isEqualTo(4);
        assertThat(map.get(key("c"))).isEqualTo(-1);
    }

    private static StoredBatch batch(long base, long last, long producerId, boolean transactional,
                                     StoredBatch.Marker marker, OptionalLong horizon) {
        return new StoredBatch(base, last, producerId, (short) 0, transactional, marker, horizon);
    }

    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8));
    }
}
