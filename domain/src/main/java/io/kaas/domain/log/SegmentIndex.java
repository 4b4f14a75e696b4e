package io.kaas.domain.log;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A segment's sparse index, one entry per {@code index.interval.bytes} of log, each at a batch
 * start: the batch's offset relative to the segment base, its byte position, and the largest
 * timestamp in the segment up to and including that batch. Offsets, positions and timestamps
 * never decrease, so both offset and timestamp lookups are binary searches.
 *
 * <p>One writer appends; readers take an immutable {@link #view()} and never lock. On disk the
 * offset part is {@code .index} (8-byte entries: relative offset, position) and the timestamp part
 * {@code .timeindex} (12-byte entries: max timestamp so far, relative offset), both big-endian.
 */
public final class SegmentIndex {
    public static final int INDEX_ENTRY_BYTES = 8;
    public static final int TIME_ENTRY_BYTES = 12;

    private long[] offsetsAndPositions = new long[16];
    private long[] timestamps = new long[16];
    private int count;

    /** Appends an entry for the batch at {@code position}; offsets and positions must increase. */
    public void add(int relativeOffset, int position, long maxTimestampSoFar) {
        if (count > 0) {
            long last = offsetsAndPositions[count - 1];
            if (relativeOffset <= relOffset(last) || position <= position(last)) {
                throw new IllegalArgumentException("index entries must increase: (" + relativeOffset + ", " + position
                        + ") after (" + relOffset(last) + ", " + position(last) + ")");
            }
            maxTimestampSoFar = Math.max(maxTimestampSoFar, timestamps[count - 1]);
        }
        if (count == offsetsAndPositions.length) {
            offsetsAndPositions = Arrays.copyOf(offsetsAndPositions, count * 2);
            timestamps = Arrays.copyOf(timestamps, count * 2);
        }
        offsetsAndPositions[count] = ((long) relativeOffset << 32) | (position & 0xFFFFFFFFL);
        timestamps[count] = maxTimestampSoFar;
        count++;
    }

    public int size() {
        return count;
    }

    /** Position of the last entry, or 0 when empty: a scan for later batches may start there. */
    public int lastPosition() {
        return count == 0 ? 0 : position(offsetsAndPositions[count - 1]);
    }

    /** Offset (relative to the segment base) of the last entry's batch, or 0 when empty. */
    public int lastRelativeOffset() {
        return count == 0 ? 0 : relOffset(offsetsAndPositions[count - 1]);
    }

    /** The largest timestamp up to the last entry's batch, or -1 when empty. */
    public long lastMaxTimestamp() {
        return count == 0 ? -1L : timestamps[count - 1];
    }

    /** An immutable view of the entries so far. */
    public View view() {
        return new View(offsetsAndPositions, timestamps, count);
    }

    /**
     * Rebuilds an index from its two files; keeps the longest prefix on which both agree and that
     * increases, ending before {@code validBytes} (the checked length of the log).
     */
    public static SegmentIndex read(ByteBuffer index, ByteBuffer timeIndex, long validBytes) {
        SegmentIndex out = new SegmentIndex();
        while (index.remaining() >= INDEX_ENTRY_BYTES && timeIndex.remaining() >= TIME_ENTRY_BYTES) {
            int rel = index.getInt();
            int pos = index.getInt();
            long maxTs = timeIndex.getLong();
            int timeRel = timeIndex.getInt();
            if (rel < 0 || pos < 0 || pos >= validBytes || rel != timeRel) {
                break;
            }
            if (out.count > 0) {
                long last = out.offsetsAndPositions[out.count - 1];
                if (rel <= relOffset(last) || pos <= position(last) || maxTs < out.timestamps[out.count - 1]) {
                    break;
                }
            }
            out.add(rel, pos, maxTs);
        }
        return out;
    }

    static int relOffset(long entry) {
        return (int) (entry >>> 32);
    }

    static int position(long entry) {
        return (int) entry;
    }

    /** A prefix of the entries, safe to share with readers. */
    public static final class View {
        private final long[] offsetsAndPositions;
        private final long[] timestamps;
        private final int count;

        View(long[] offsetsAndPositions, long[] timestamps, int count) {
            this.offsetsAndPositions = offsetsAndPositions;
            this.timestamps = timestamps;
            this.count = count;
        }

        public int size() {
            return count;
        }

        /** Position of the last entry at or below {@code relativeOffset}, else 0 (the segment start). */
        public int floorPosition(long relativeOffset) {
            int found = lastIndexWhere(i -> relOffset(offsetsAndPositions[i]) <= relativeOffset);
            return found < 0 ? 0 : position(offsetsAndPositions[found]);
        }

        /** The last entry's position at or below {@code position}, else 0: a batch boundary to walk from. */
        public int floorPositionAtOrBelow(int position) {
            int found = lastIndexWhere(i -> position(offsetsAndPositions[i]) <= position);
            return found < 0 ? 0 : position(offsetsAndPositions[found]);
        }

        /**
         * Where to start scanning for the first batch with a timestamp at or above {@code timestamp}:
         * the last entry whose batches so far all lie below it, else 0.
         */
        public int scanStartForTimestamp(long timestamp) {
            int found = lastIndexWhere(i -> timestamps[i] < timestamp);
            return found < 0 ? 0 : position(offsetsAndPositions[found]);
        }

        private int lastIndexWhere(IntPredicate below) {
            int lo = 0;
            int hi = count - 1;
            int found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (below.test(mid)) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return found;
        }

        /** The {@code .index} file content. */
        public ByteBuffer indexBytes() {
            ByteBuffer out = ByteBuffer.allocate(count * INDEX_ENTRY_BYTES);
            for (int i = 0; i < count; i++) {
                out.putInt(relOffset(offsetsAndPositions[i])).putInt(position(offsetsAndPositions[i]));
            }
            return out.flip();
        }

        /** The {@code .timeindex} file content. */
        public ByteBuffer timeIndexBytes() {
            ByteBuffer out = ByteBuffer.allocate(count * TIME_ENTRY_BYTES);
            for (int i = 0; i < count; i++) {
                out.putLong(timestamps[i]).putInt(relOffset(offsetsAndPositions[i]));
            }
            return out.flip();
        }
    }
}
