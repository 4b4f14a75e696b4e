package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.batch;
import static io.kaas.adapter.fs.log.Batches.header;
import static io.kaas.adapter.fs.log.Batches.split;
import static io.kaas.adapter.fs.log.Batches.stored;
import static io.kaas.adapter.fs.log.EngineFixture.append;
import static io.kaas.adapter.fs.log.EngineFixture.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.RecordsSlice;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Fetch-side reads: whole batches, from the batch holding the offset, within one segment, by maxBytes. */
class ReadTest {
    private final EngineFixture f = new EngineFixture();
    private final Random random = new Random(3);
    private final Topic topic = EngineFixture.topic("t", 1, Map.of("segment.bytes", "2500", "index.interval.bytes", "500"));
    private final List<byte[]> stored = new ArrayList<>();
    private final List<Long> bases = new ArrayList<>();
    private final List<byte[]> bigStored = new ArrayList<>();
    private final List<Long> bigBases = new ArrayList<>();
    private PartitionLog log;

    @BeforeEach
    void fillThreeSegments() {
        log = f.open(topic, 0);
        long now = f.clock.nowMs();
        for (int i = 0; i < 30; i++) {
            byte[] b = batch(1 + random.nextInt(5), 100 + random.nextInt(200), now + i, random);
            long base = append(log, b, now);
            bases.add(base);
            stored.add(stored(b, base, 0));
        }
        assertThat(f.segments(topic, 0)).hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void readsEverythingBackByteIdenticalAndInOrder() {
        assertThat(readAll(log, 0)).containsExactlyElementsOf(stored);
    }

    @Test
    void anOffsetInsideABatchReadsFromThatBatch() {
        int i = indexOfBatchWithRecords(3);
        long middle = bases.get(i) + 1;

        LogRead read = log.read(middle, 1 << 20, false);

        assertThat(read.error()).isEqualTo(KafkaError.NONE);
        assertThat(split(read.records().toByteBuffer()).get(0)).isEqualTo(stored.get(i));
    }

    @Test
    void aReadStopsAtItsSegmentsEndAndTheNextReadContinuesInTheNext() {
        long secondSegment = f.segments(topic, 0).get(1).baseOffset();
        int lastOfFirst = bases.indexOf(secondSegment) - 1;

        List<byte[]> first = split(log.read(bases.get(lastOfFirst), 1 << 20, false).records().toByteBuffer());
        List<byte[]> next = split(log.read(secondSegment, 1 << 20, false).records().toByteBuffer());

        assertThat(first).containsExactly(stored.get(lastOfFirst));
        assertThat(next.get(0)).isEqualTo(stored.get(lastOfFirst + 1));
        assertThat(header(next.get(0)).baseOffset()).isEqualTo(secondSegment);
    }

    @Test
    void maxBytesReturnsWholeBatchesOnly() {
        int size0 = stored.get(0).length;
        int size1 = stored.get(1).length;

        assertThat(split(log.read(0, size0 + size1 - 1, false).records().toByteBuffer())).containsExactly(stored.get(0));
        assertThat(split(log.read(0, size0 + size1, false).records().toByteBuffer())).containsExactly(stored.get(0), stored.get(1));
    }

    @Test
    void aFirstBatchLargerThanMaxBytesNeedsMinOneBatch() {
        LogRead without = log.read(0, 10, false);
        LogRead with = log.read(0, 10, true);

        assertThat(without.error()).isEqualTo(KafkaError.NONE);
        assertThat(without.sizeInBytes()).isZero();
        assertThat(split(with.records().toByteBuffer())).containsExactly(stored.get(0));
    }

    @Test
    void offsetsOutsideTheLogAreOutOfRange() {
        long hwm = log.offsets().highWatermark();

        assertThat(log.read(hwm, 1000, true).error()).isEqualTo(KafkaError.NONE);
        assertThat(log.read(hwm, 1000, true).sizeInBytes()).isZero();
        assertThat(log.read(hwm + 1, 1000, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        assertThat(log.read(-1, 1000, true).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
    }

    @Test
    void theIndexKeepsAReadNearItsBatch() {
        long last = bases.get(bases.size() - 1);
        f.fs.resetCounters();

        log.read(last, 1 << 20, true);

        // the index entry below the batch is at most index.interval.bytes plus a batch away
        assertThat(f.fs.logBytesRead()).isLessThan(2 * (500 + 400) + 400);
    }

    @Test
    void aReadIsARegionOfTheSegmentFileFoundByReadingHeadersOnly() {
        PartitionLog bigLog = oneLargeSegment();
        f.fs.resetCounters();

        LogRead read = bigLog.read(200, 64 * 1024, false);

        assertThat(read.records()).isInstanceOf(RecordsSlice.FileSlice.class);
        RecordsSlice.FileSlice slice = (RecordsSlice.FileSlice) read.records();
        assertThat(slice.size()).isBetween(60 * 1024, 64 * 1024);
        // the bytes stay in the file for the socket to take; finding both ends looked at headers near index entries
        assertThat(f.fs.logBytesRead()).isLessThan(slice.size() / 2);
    }

    @Test
    void everyReadReturnsTheMostWholeBatchesThatFitInMaxBytes() {
        PartitionLog bigLog = oneLargeSegment();
        Random picks = new Random(11);
        for (int trial = 0; trial < 300; trial++) {
            int first = picks.nextInt(bigStored.size());
            long offset = bigBases.get(first) + picks.nextInt(header(bigStored.get(first)).recordsCount());
            int maxBytes = 1 + picks.nextInt(20_000);

            List<byte[]> returned = split(bigLog.read(offset, maxBytes, false).records().toByteBuffer());

            List<byte[]> expected = new ArrayList<>();
            int bytes = 0;
            for (int i = first; i < bigStored.size() && bytes + bigStored.get(i).length <= maxBytes; i++) {
                expected.add(bigStored.get(i));
                bytes += bigStored.get(i).length;
            }
            assertThat(returned).as("read at %d of at most %d bytes", offset, maxBytes).containsExactlyElementsOf(expected);
        }
    }

    /** 400 batches in one segment, an index entry every 500 bytes. */
    private PartitionLog oneLargeSegment() {
        PartitionLog bigLog = f.open(EngineFixture.topic("big", 1, Map.of("index.interval.bytes", "500")), 0);
        long now = f.clock.nowMs();
        for (int i = 0; i < 400; i++) {
            byte[] b = batch(1 + random.nextInt(5), 100 + random.nextInt(200), now + i, random);
            long base = append(bigLog, b, now);
            bigBases.add(base);
            bigStored.add(stored(b, base, 0));
        }
        return bigLog;
    }

    @Test
    void readsTheSameAfterARestart() {
        f.close();
        PartitionLog reopened = f.open(topic, 0);

        assertThat(readAll(reopened, 0)).containsExactlyElementsOf(stored);
        int i = indexOfBatchWithRecords(3);
        assertThat(split(reopened.read(bases.get(i) + 2, 1, true).records().toByteBuffer())).containsExactly(stored.get(i));
    }

    private int indexOfBatchWithRecords(int atLeast) {
        for (int i = 1; i < stored.size(); i++) {
            if (header(stored.get(i)).recordsCount() >= atLeast) {
                return i;
            }
        }
        throw new AssertionError("no batch with " + atLeast + " records");
    }
}
