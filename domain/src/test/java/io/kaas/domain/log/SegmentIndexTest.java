package io.kaas.domain.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SegmentIndexTest {

    /** Entries (rel offset, position, max timestamp so far): (10, 4096, 100), (25, 8192, 300), (40, 12288, 300), (70, 16384, 900). */
    private static SegmentIndex sample() {
        SegmentIndex index = new SegmentIndex();
        index.add(10, 4096, 100);
        index.add(25, 8192, 300);
        index.add(40, 12288, 250); // an older batch: the time column keeps the maximum so far
        index.add(70, 16384, 900);
        return index;
    }

    @Test
    void emptyIndexPointsAtTheSegmentStart() {
        SegmentIndex.View view = new SegmentIndex().view();

        assertThat(view.size()).isZero();
        assertThat(view.floorPosition(0)).isZero();
        assertThat(view.floorPosition(1_000_000)).isZero();
        assertThat(view.scanStartForTimestamp(Long.MAX_VALUE)).isZero();
        assertThat(new SegmentIndex().lastPosition()).isZero();
        assertThat(new SegmentIndex().lastRelativeOffset()).isZero();
        assertThat(new SegmentIndex().lastMaxTimestamp()).isEqualTo(-1L);
    }

    @Test
    void floorPositionIsTheLastEntryAtOrBelowTheOffset() {
        SegmentIndex.View view = sample().view();

        assertThat(view.floorPosition(0)).isZero();      // before the first entry: scan from the start
        assertThat(view.floorPosition(9)).isZero();
        assertThat(view.floorPosition(10)).isEqualTo(4096); // exact
        assertThat(view.floorPosition(24)).isEqualTo(4096); // between
        assertThat(view.floorPosition(25)).isEqualTo(8192);
        assertThat(view.floorPosition(69)).isEqualTo(12288);
        assertThat(view.floorPosition(70)).isEqualTo(16384);
        assertThat(view.floorPosition(Long.MAX_VALUE)).isEqualTo(16384); // past the last
    }

    @Test
    void timestampScanStartsAtTheLastEntryWhoseBatchesAreAllOlder() {
        SegmentIndex index = sample();
        SegmentIndex.View view = index.view();

        assertThat(view.scanStartForTimestamp(50)).isZero();     // even the first entry has a newer batch
        assertThat(view.scanStartForTimestamp(100)).isZero();    // max so far 100 is not below 100
        assertThat(view.scanStartForTimestamp(101)).isEqualTo(4096);
        assertThat(view.scanStartForTimestamp(300)).isEqualTo(4096);
        assertThat(view.scanStartForTimestamp(301)).isEqualTo(12288); // 250 was clamped to 300
        assertThat(view.scanStartForTimestamp(901)).isEqualTo(16384);
        assertThat(index.lastMaxTimestamp()).isEqualTo(900);
    }

    @Test
    void rejectsEntriesThatDoNotIncrease() {
        SegmentIndex index = sample();

        assertThatThrownBy(() -> index.add(70, 20000, 1000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> index.add(80, 16384, 1000)).isInstanceOf(IllegalArgumentException.class);
        assertThat(index.size()).isEqualTo(4);
    }

    @Test
    void aViewIsNotChangedByLaterEntries() {
        SegmentIndex index = new SegmentIndex();
        index.add(1, 100, 5);
        SegmentIndex.View before = index.view();
        for (int i = 2; i < 100; i++) { // forces the arrays to grow
            index.add(i, i * 100, 5 + i);
        }

        assertThat(before.size()).isEqualTo(1);
        assertThat(before.floorPosition(1_000)).isEqualTo(100);
        assertThat(index.view().floorPosition(1_000)).isEqualTo(9900);
    }

    @Test
    void roundTripsThroughItsFiles() {
        SegmentIndex index = sample();
        ByteBuffer offsets = index.view().indexBytes();
        ByteBuffer times = index.view().timeIndexBytes();

        assertThat(offsets.remaining()).isEqualTo(4 * SegmentIndex.INDEX_ENTRY_BYTES);
        assertThat(times.remaining()).isEqualTo(4 * SegmentIndex.TIME_ENTRY_BYTES);
        // big-endian (relative offset, position)
        assertThat(offsets.getInt(0)).isEqualTo(10);
        assertThat(offsets.getInt(4)).isEqualTo(4096);
        assertThat(times.getLong(0)).isEqualTo(100);
        assertThat(times.getInt(8)).isEqualTo(10);

        SegmentIndex read = SegmentIndex.read(offsets, times, 1 << 20);
        assertThat(read.size()).isEqualTo(4);
        assertThat(read.lastPosition()).isEqualTo(16384);
        assertThat(read.lastRelativeOffset()).isEqualTo(70);
        assertThat(read.lastMaxTimestamp()).isEqualTo(900);
        assertThat(read.view().indexBytes()).isEqualTo(index.view().indexBytes());
        assertThat(read.view().timeIndexBytes()).isEqualTo(index.view().timeIndexBytes());
    }

    @Test
    void keepsOnlyEntriesBelowTheCheckedLogLength() {
        SegmentIndex index = sample();

        SegmentIndex read = SegmentIndex.read(index.view().indexBytes(), index.view().timeIndexBytes(), 12288);

        assertThat(read.size()).isEqualTo(2);
        assertThat(read.lastPosition()).isEqualTo(8192);
        assertThat(SegmentIndex.read(index.view().indexBytes(), index.view().timeIndexBytes(), 0).size()).isZero();
    }

    @Test
    void aTruncatedFileKeepsItsWholeEntries() {
        SegmentIndex index = sample();
        ByteBuffer offsets = index.view().indexBytes();
        ByteBuffer times = index.view().timeIndexBytes();

        SegmentIndex tornOffsets = SegmentIndex.read(offsets.duplicate().limit(2 * 8 + 5), times.duplicate(), 1 << 20);
        SegmentIndex tornTimes = SegmentIndex.read(offsets.duplicate(), times.duplicate().limit(3 * 12 + 11), 1 << 20);
        SegmentIndex empty = SegmentIndex.read(ByteBuffer.allocate(0), times.duplicate(), 1 << 20);

        assertThat(tornOffsets.size()).isEqualTo(2);
        assertThat(tornTimes.size()).isEqualTo(3);
        assertThat(empty.size()).isZero();
    }

    @Test
    void stopsAtTheFirstEntryThatIsGarbage() {
        SegmentIndex index = sample();
        ByteBuffer offsets = index.view().indexBytes();
        ByteBuffer times = index.view().timeIndexBytes();

        // 3rd entry's position goes backwards
        ByteBuffer backwards = copy(offsets);
        backwards.putInt(2 * 8 + 4, 100);
        assertThat(SegmentIndex.read(backwards, times.duplicate(), 1 << 20).size()).isEqualTo(2);

        // 2nd entry's offset disagrees with the time index
        ByteBuffer disagree = copy(offsets);
        disagree.putInt(8, 26);
        assertThat(SegmentIndex.read(disagree, times.duplicate(), 1 << 20).size()).isEqualTo(1);

        // 4th entry's timestamp goes backwards
        ByteBuffer olderTime = copy(times);
        olderTime.putLong(3 * 12, 10);
        assertThat(SegmentIndex.read(offsets.duplicate(), olderTime, 1 << 20).size()).isEqualTo(3);

        // negative values
        ByteBuffer negative = copy(offsets);
        negative.putInt(0, -1);
        assertThat(SegmentIndex.read(negative, times.duplicate(), 1 << 20).size()).isZero();

        // all zeros (a file whose size reached the disk before its data)
        byte[] zeros = new byte[offsets.remaining()];
        byte[] zeroTimes = new byte[times.remaining()];
        SegmentIndex fromZeros = SegmentIndex.read(ByteBuffer.wrap(zeros), ByteBuffer.wrap(zeroTimes), 1 << 20);
        assertThat(fromZeros.size()).isLessThanOrEqualTo(1); // (0, 0) once at most, then not increasing
        assertThat(fromZeros.view().floorPosition(Long.MAX_VALUE)).isZero();
    }

    private static ByteBuffer copy(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length));
    }
}
