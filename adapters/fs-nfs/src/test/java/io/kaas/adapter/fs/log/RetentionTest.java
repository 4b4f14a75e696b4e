package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.header;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.PartitionLog;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Retention by time and size, and DeleteRecords: what goes, what never goes, and what survives a restart. */
class RetentionTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(5);

    /**
     * Appends {@code count} single-record 250-byte batches stamped {@code timestamp}; 4 fit a 1000-byte
     * segment. Then lets the committer seal what rolled, as it does right after a roll.
     */
    private void fill(PartitionLog log, int count, long timestamp) {
        for (int i = 0; i < count; i++) {
            append(log, batch(1, 250 - 61, timestamp, random), f.clock.nowMs());
        }
        f.commit();
    }

    private static Topic topic(String... configs) {
        Map<String, String> map = new java.util.HashMap<>(Map.of("segment.bytes", "1000"));
        for (int i = 0; i < configs.length; i += 2) {
            map.put(configs[i], configs[i + 1]);
        }
        return EngineFixture.topic("t", 1, map);
    }

    @Test
    void dropsClosedSegmentsWhoseNewestRecordIsOlderThanRetentionMs() {
        Topic topic = topic("retention.ms", "1000");
        PartitionLog log = f.open(topic, 0);
        long t = f.clock.nowMs();
        fill(log, 4, t);            // segment 0..3, newest record t
        fill(log, 3, t);
        fill(log, 1, t + 500);      // segment 4..7, newest record t + 500
        fill(log, 4, t + 2000);     // segment 8..11
        fill(log, 1, t + 2000);     // active 12

        log.applyRetention(t + 1001);
        assertThat(log.offsets().logStartOffset()).isEqualTo(4);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(4L, 8L, 12L);

        log.applyRetention(t + 1500); // 4..7 is exactly retention.ms old: kept
        assertThat(log.offsets().logStartOffset()).isEqualTo(4);
        log.applyRetention(t + 1501);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L, 12L);
        assertThat(log.read(7, 1000, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(header(readAll(log, 8).get(0)).baseOffset()).isEqualTo(8);
    }

    @Test
    void ageComesFromRecordTimestampsNotWhenTheSegmentWasWritten() {
        Topic topic = topic("retention.ms", "1000");
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();
        fill(log, 4, now - 5000);  // back-dated records, written just now
        fill(log, 1, now);

        log.applyRetention(now);

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(4L);
    }

    @Test
    void aSegmentWithoutTimestampsAgesByItsFileModificationTime() {
        Topic topic = topic("retention.ms", "1000");
        PartitionLog log = f.open(topic, 0);
        long written = f.clock.nowMs();
        fill(log, 4, -1L);          // no record timestamps (pre-0.10 clients): 0..3, last written at `written`
        f.clock.advance(2000);
        fill(log, 1, -1L);          // active 4

        log.applyRetention(written + 1000); // exactly retention.ms after the last write: kept
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L, 4L);
        log.applyRetention(written + 1001);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(4L);
    }

    @Test
    void theActiveSegmentIsNeverDeleted() {
        Topic topic = topic("retention.ms", "1000", "retention.bytes", "0");
        PartitionLog log = f.open(topic, 0);
        long t = f.clock.nowMs();
        fill(log, 3, t - 1_000_000);

        log.applyRetention(t + 1_000_000);

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L);
        assertThat(log.offsets().logStartOffset()).isZero();
        assertThat(readAll(log, 0)).hasSize(3);
    }

    @Test
    void dropsTheOldestClosedSegmentsWhileTheLogExceedsRetentionBytes() {
        Topic topic = topic("retention.bytes", "2000", "retention.ms", "-1");
        PartitionLog log = f.open(topic, 0);
        fill(log, 18, f.clock.nowMs()); // 4 + 4 + 4 + 4 + active 2 = 4500 bytes

        log.applyRetention(f.clock.nowMs());

        // dropping a segment must leave at least retention.bytes: 4500 -> 3500 -> 2500 -> (1500 < 2000: stop)
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L, 12L, 16L);
        assertThat(log.offsets().logStartOffset()).isEqualTo(8);
    }

    @Test
    void minusOneRetainsForever() {
        Topic topic = topic("retention.bytes", "-1", "retention.ms", "-1");
        PartitionLog log = f.open(topic, 0);
        fill(log, 18, 0);

        log.applyRetention(Long.MAX_VALUE / 2);

        assertThat(f.segments(topic, 0)).hasSize(5);
    }

    @Test
    void aChangedRetentionAppliesToTheLiveLog() {
        Topic topic = topic("retention.ms", "-1");
        PartitionLog log = f.open(topic, 0);
        fill(log, 9, 0);
        log.applyRetention(f.clock.nowMs());
        assertThat(f.segments(topic, 0)).hasSize(3);

        log.updateConfig(f.config(Map.of("segment.bytes", "1000", "retention.ms", "1")));
        log.applyRetention(f.clock.nowMs());

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L);
    }

    @Test
    void retentionSurvivesACrash() {
        Topic topic = topic("retention.ms", "1000");
        PartitionLog log = f.open(topic, 0);
        long t = f.clock.nowMs();
        fill(log, 8, t - 10_000);
        fill(log, 1, t);
        f.commit();
        log.applyRetention(t);
        assertThat(log.offsets().logStartOffset()).isEqualTo(8);
        f.crash();

        PartitionLog reopened = f.open(topic, 0);

        assertThat(reopened.offsets().logStartOffset()).isEqualTo(8);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L);
    }

    // ---- DeleteRecords ----

    @Test
    void deleteRecordsAdvancesTheLogStartAndUnlinksWhollyCoveredClosedSegments() {
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        fill(log, 14, 0); // segments 0, 4, 8, active 12

        assertThat(log.deleteRecordsBefore(9)).isEqualTo(KafkaError.NONE);

        assertThat(log.offsets().logStartOffset()).isEqualTo(9);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L, 12L);
        assertThat(f.file(topic, 0, new SegmentName(0, 0).indexFile())).isEmpty();
        assertThat(log.read(8, 1000, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(header(readAll(log, 9).get(0)).baseOffset()).isEqualTo(9);
        assertThat(log.deleteRecordsBefore(5)).isEqualTo(KafkaError.NONE); // below the log start: nothing to do
        assertThat(log.offsets().logStartOffset()).isEqualTo(9);
    }

    @Test
    void deleteRecordsInsideABatchKeepsTheBatch() {
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        append(log, batch(5, 100, 0, random), 0);
        append(log, batch(5, 100, 0, random), 0);

        assertThat(log.deleteRecordsBefore(7)).isEqualTo(KafkaError.NONE);

        assertThat(log.offsets().logStartOffset()).isEqualTo(7);
        List<byte[]> read = readAll(log, 7);
        assertThat(header(read.get(0)).baseOffset()).isEqualTo(5);
    }

    @Test
    void deleteRecordsPastTheHighWatermarkIsOutOfRange() {
        PartitionLog log = f.open(topic(), 0);
        fill(log, 6, 0);

        assertThat(log.deleteRecordsBefore(7)).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(log.deleteRecordsBefore(-2)).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(log.offsets().logStartOffset()).isZero();
    }

    @Test
    void deleteRecordsUpToTheHighWatermarkKeepsOnlyTheActiveSegment() {
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        fill(log, 10, 0);

        assertThat(log.deleteRecordsBefore(10)).isEqualTo(KafkaError.NONE);

        assertThat(log.offsets().logStartOffset()).isEqualTo(10);
        assertThat(log.offsets().highWatermark()).isEqualTo(10);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L);
        assertThat(append(log, batch(1, 10, 0, random), 0)).isEqualTo(10);
    }

    @Test
    void deleteRecordsSurvivesACleanRestartAndACrash() {
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        fill(log, 10, 0);
        f.commit();
        assertThat(log.deleteRecordsBefore(6)).isEqualTo(KafkaError.NONE);
        f.crash();
        assertThat(f.open(topic, 0).offsets().logStartOffset()).isEqualTo(6);

        assertThat(f.open(topic, 0).deleteRecordsBefore(7)).isEqualTo(KafkaError.NONE);
        f.close();
        PartitionLog reopened = f.open(topic, 0);

        assertThat(reopened.offsets().logStartOffset()).isEqualTo(7);
        assertThat(reopened.read(6, 1000, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(header(readAll(reopened, 7).get(0)).baseOffset()).isEqualTo(7);
    }

    @Test
    void aSegmentStillBeingSealedWhenDeleteRecordsCoversItGoesAtTheNextRetentionPass() {
        Topic topic = topic("retention.ms", "-1");
        PartitionLog log = f.open(topic, 0);
        for (int i = 0; i < 10; i++) {
            append(log, batch(1, 250 - 61, 0, random), 0); // rolled twice, the committer has not sealed them yet
        }

        assertThat(log.deleteRecordsBefore(9)).isEqualTo(KafkaError.NONE);
        assertThat(log.offsets().logStartOffset()).isEqualTo(9);
        f.commit();
        log.applyRetention(f.clock.nowMs());

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L);
    }

    @Test
    void aDeleteRecordsThatCouldNotPersistLeavesNoHoleForALaterOneToOpen() {
        // Found by the simulation (seed 13): the first DeleteRecords failed to write the manifest after taking
        // its segments out of the log, so their files stayed; the second unlinked the segments after them. On
        // disk: old segments, a hole, the live ones - and recovery dropped everything after the hole.
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        fill(log, 22, 0); // segments 0, 4, 8, 12, 16, active 20
        f.sim.failNextFsyncs(1);
        assertThat(log.deleteRecordsBefore(5)).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(log.deleteRecordsBefore(17)).isEqualTo(KafkaError.NONE);
        f.crash();

        PartitionLog reopened = f.open(topic, 0);

        assertThat(reopened.offsets().highWatermark()).isEqualTo(22);
        assertThat(reopened.offsets().logStartOffset()).isEqualTo(17);
        assertThat(readAll(reopened, 17)).hasSize(5);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(16L, 20L);
    }

    @Test
    void unlinksThatFailedAreRetriedByTheNextRetentionPass() {
        Topic topic = topic("retention.ms", "-1");
        PartitionLog log = f.open(topic, 0);
        fill(log, 14, 0);
        f.fs.failDirectorySyncAfter(1); // the manifest's rename is durable, the unlinks are not
        assertThat(log.deleteRecordsBefore(9)).isEqualTo(KafkaError.NONE); // durable: the files go later

        log.applyRetention(f.clock.nowMs());
        f.crash();

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(8L, 12L);
        assertThat(readAll(f.open(topic, 0), 9)).hasSize(5);
    }

    @Test
    void aClosedLogRefusesDeleteRecordsAndWritesNothing() {
        // after close (relinquish) another broker may own the directory: nothing may be written there
        Topic topic = topic();
        PartitionLog log = f.open(topic, 0);
        fill(log, 10, 0);
        f.close();
        byte[] manifest = f.file(topic, 0, "manifest.json").orElseThrow();

        assertThat(log.deleteRecordsBefore(9)).isNotEqualTo(KafkaError.NONE);
        log.applyRetention(Long.MAX_VALUE / 2);

        assertThat(f.file(topic, 0, "manifest.json")).contains(manifest);
        assertThat(f.segments(topic, 0)).hasSize(3);
    }
}
