package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.HeaderStampedRecords;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.TimestampOffset;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ListOffsets by timestamp and MAX_TIMESTAMP on the disk log: which batch the time index and headers
 * find, across segments, after restarts. Every record of these batches carries the batch's timestamp
 * (as {@link HeaderStampedRecords} reads them), so the first record reaching a target is the batch's
 * first one at or above the log start.
 */
class TimestampLookupTest {
    private static final HeaderStampedRecords RECORDS = new HeaderStampedRecords();
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(9);
    private final Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "1500", "index.interval.bytes", "300"));
    /** Per appended batch: base offset, last offset, max timestamp. */
    private final List<long[]> batches = new ArrayList<>();
    private PartitionLog log;

    @BeforeEach
    void appendBatchesWithTimestampsThatMostlyRise() {
        log = f.open(topic, 0);
        long t = 1_000_000;
        for (int i = 0; i < 80; i++) {
            t += random.nextInt(10) < 8 ? random.nextInt(100) : -random.nextInt(300); // some go backwards
            int records = 1 + random.nextInt(3);
            long base = append(log, batch(records, 100 + random.nextInt(100), t, random), f.clock.nowMs());
            batches.add(new long[] {base, base + records - 1, t});
        }
        assertThat(f.segments(topic, 0)).hasSizeGreaterThan(5);
    }

    /** The first batch (by offset) whose max timestamp reaches the target: its first record at or above the log start. */
    private Optional<TimestampOffset> expectedFor(long target, long logStart) {
        for (long[] b : batches) {
            if (b[1] >= logStart && b[2] >= target) {
                return Optional.of(new TimestampOffset(b[2], Math.max(b[0], logStart)));
            }
        }
        return Optional.empty();
    }

    private Optional<TimestampOffset> expectedMax(long logStart) {
        long[] max = null;
        for (long[] b : batches) {
            if (b[1] >= logStart && (max == null || b[2] > max[2])) {
                max = b;
            }
        }
        return Optional.ofNullable(max).map(b -> new TimestampOffset(b[2], b[1]));
    }

    private void assertLookupsExact(PartitionLog log, long logStart) {
        for (long[] b : batches) {
            for (long target : new long[] {b[2] - 1, b[2], b[2] + 1}) {
                assertThat(log.offsetForTimestamp(target, RECORDS)).as("timestamp %d", target).isEqualTo(expectedFor(target, logStart));
            }
        }
        assertThat(log.offsetForTimestamp(0, RECORDS)).isEqualTo(expectedFor(0, logStart));
        assertThat(log.offsetForTimestamp(Long.MAX_VALUE, RECORDS)).isEmpty();
        assertThat(log.maxTimestamp()).isEqualTo(expectedMax(logStart));
    }

    @Test
    void findsTheFirstBatchReachingEachTimestamp() {
        assertLookupsExact(log, 0);
    }

    @Test
    void findsTheSameAfterACleanRestartAndAfterACrash() {
        f.close();
        assertLookupsExact(f.open(topic, 0), 0);
        f.crash(); // nothing new to lose: the close made it all durable
        assertLookupsExact(f.open(topic, 0), 0);
    }

    @Test
    void neverAnswersAnOffsetBelowTheLogStart() {
        long logStart = batches.get(batches.size() / 2)[0] + 1; // inside a segment, maybe inside a batch
        log.deleteRecordsBefore(logStart);

        for (long[] b : batches) {
            Optional<TimestampOffset> found = log.offsetForTimestamp(b[2], RECORDS);
            assertThat(found).isEqualTo(expectedFor(b[2], logStart));
            found.ifPresent(o -> assertThat(o.offset()).isGreaterThanOrEqualTo(logStart));
        }
        assertThat(log.offsetForTimestamp(0, RECORDS)).contains(new TimestampOffset(expectedFor(0, logStart).orElseThrow()
                .timestamp(), logStart));
    }

    @Test
    void maxTimestampIsTheEarliestBatchHoldingIt() {
        PartitionLog fresh = f.open(EngineFixture.topic("ties", 1, Map.of("segment.bytes", "400")), 0);
        append(fresh, batch(2, 100, 50, random), 0);
        append(fresh, batch(2, 100, 70, random), 0);    // offsets 2..3
        append(fresh, batch(2, 100, 60, random), 0);
        append(fresh, batch(2, 100, 70, random), 0);    // a tie, later: Apache keeps the first

        assertThat(fresh.maxTimestamp()).contains(new TimestampOffset(70, 3));
        assertThat(f.open(EngineFixture.topic("empty", 1, Map.of()), 0).maxTimestamp()).isEmpty();
    }
}
