package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.PartitionLog;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Segment rolls (segment.bytes, segment.ms, relative-offset range) and the sparse index they keep. */
class SegmentRollTest {
    private static final long DAY = 24L * 60 * 60 * 1000;

    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(42);

    @Test
    void rollsBeforeASegmentWouldExceedSegmentBytes() {
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "1000"));
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();

        // 300-byte batches: three fit in 1000 bytes, the fourth starts a new segment
        for (int i = 0; i < 7; i++) {
            append(log, batch(2, 300 - 61, now, random), now);
        }

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L, 6L, 12L);
        assertThat(readAll(log, 0)).hasSize(7);
    }

    @Test
    void aBatchLargerThanSegmentBytesStillGoesIntoAnEmptySegment() {
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "100"));
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();

        append(log, batch(1, 500, now, random), now);
        append(log, batch(1, 500, now, random), now);

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L, 1L);
    }

    @Test
    void rollsWhenTheRecordTimestampsSpanMoreThanSegmentMs() {
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.ms", Long.toString(DAY)));
        PartitionLog log = f.open(topic, 0);
        long t0 = f.clock.nowMs();

        append(log, batch(1, 10, t0, random), t0);
        append(log, batch(1, 10, t0 + DAY, random), t0 + DAY);     // exactly segment.ms: no roll (Apache: strictly more)
        assertThat(f.segments(topic, 0)).hasSize(1);
        append(log, batch(1, 10, t0 + DAY + 1, random), t0 + DAY + 1);

        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L, 2L);
    }

    @Test
    void backDatedRecordsDoNotRollASegmentPerBatch() {
        // A producer replaying last year's data: the records are old, the segment is not.
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.ms", Long.toString(DAY)));
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();
        long lastYear = now - 365 * DAY;

        for (int i = 0; i < 20; i++) {
            append(log, batch(1, 10, lastYear + i * 1000L, random), now + i);
        }

        assertThat(f.segments(topic, 0)).hasSize(1);
    }

    @Test
    void withoutTimestampsASegmentRollsByItsAge() {
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.ms", "1000"));
        PartitionLog log = f.open(topic, 0);
        long created = f.clock.nowMs();

        append(log, batch(1, 10, -1L, random), created);
        append(log, batch(1, 10, -1L, random), created + 1000);
        assertThat(f.segments(topic, 0)).hasSize(1);
        append(log, batch(1, 10, -1L, random), created + 1001);

        assertThat(f.segments(topic, 0)).hasSize(2);
    }

    @Test
    void theTimeRollSurvivesARestart() {
        // After a restart the active segment's first timestamp must come from its first batch, not the open time.
        Topic topic = EngineFixture.topic("t", 1, Map.of("segment.ms", Long.toString(DAY), "index.interval.bytes", "100"));
        PartitionLog log = f.open(topic, 0);
        long t0 = f.clock.nowMs();
        for (int i = 0; i < 10; i++) {
            append(log, batch(1, 200, t0 + i, random), t0 + i);
        }
        f.close();
        f.clock.advance(10 * DAY);
        long now = f.clock.nowMs();

        PartitionLog reopened = f.open(topic, 0);
        append(reopened, batch(1, 10, t0 + DAY, random), now);
        assertThat(f.segments(topic, 0)).hasSize(1);
        append(reopened, batch(1, 10, t0 + DAY + 1, random), now);

        assertThat(f.segments(topic, 0)).hasSize(2);
    }

    @Test
    void rollsBeforeOffsetsOutgrowTheIndexRelativeOffsets() {
        // Relative offsets in the index are 32-bit; a batch whose offsets would not fit starts a new segment
        // (Apache: LogSegment.canConvertToRelativeOffset). Record counts are the producer's claim, bytes are opaque.
        Topic topic = EngineFixture.topic("t", 1, Map.of("index.interval.bytes", "1"));
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();
        int huge = Integer.MAX_VALUE - 10;

        long first = append(log, Batches.batch(huge, new byte[10], now, Batches.NO_PRODUCER, (short) -1, -1), now);
        long second = append(log, Batches.batch(huge, new byte[10], now, Batches.NO_PRODUCER, (short) -1, -1), now);
        long third = append(log, batch(1, 10, now, random), now);

        assertThat(first).isZero();
        assertThat(second).isEqualTo(huge);
        assertThat(third).isEqualTo(2L * huge);
        assertThat(f.segments(topic, 0)).extracting(SegmentName::baseOffset).containsExactly(0L, (long) huge);
        assertThat(readAll(log, 0)).hasSize(3);
        f.close();
        assertThat(readAll(f.open(topic, 0), 0)).hasSize(3);
    }

    @Test
    void writesAnIndexEntryEveryIndexIntervalBytes() {
        Topic topic = EngineFixture.topic("t", 1, Map.of("index.interval.bytes", "1000"));
        PartitionLog log = f.open(topic, 0);
        long now = f.clock.nowMs();
        List<Integer> positions = new ArrayList<>();
        int position = 0;
        for (int i = 0; i < 100; i++) {
            byte[] b = batch(1 + random.nextInt(3), 50 + random.nextInt(300), now + i, random);
            positions.add(position);
            position += b.length;
            append(log, b, now + i);
        }
        f.close();

        ByteBuffer index = ByteBuffer.wrap(f.file(topic, 0, new SegmentName(0, 0).indexFile()).orElseThrow());
        List<Integer> entries = new ArrayList<>();
        while (index.remaining() >= SegmentIndex.INDEX_ENTRY_BYTES) {
            index.getInt();
            entries.add(index.getInt());
        }
        assertThat(entries).isNotEmpty().allSatisfy(p -> assertThat(positions).contains(p)); // at batch starts
        int previous = 0;
        for (int p : entries) {
            assertThat(p - previous).as("bytes between index entries").isGreaterThanOrEqualTo(1000)
                    .isLessThan(1000 + 420);
            previous = p;
        }
        assertThat(position - previous).isLessThan(1000 + 420);
    }
}
