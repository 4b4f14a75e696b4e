package io.kaas.domain.log;

import java.util.Locale;
import java.util.Optional;

/**
 * A segment's identity, carried in its file names {@code {epoch:08x}-{baseOffset:020d}.log} (and
 * {@code .index}, {@code .timeindex}, {@code .txnindex}): the leader epoch that wrote it and its first offset. A
 * deposed leader's late writes land in a file stamped with its dead epoch, never in the new
 * leader's segment.
 */
public record SegmentName(int epoch, long baseOffset) implements Comparable<SegmentName> {
    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    public static final String TXN_INDEX_SUFFIX = ".txnindex";
    private static final int EPOCH_DIGITS = 8;
    private static final int OFFSET_DIGITS = 20;

    public SegmentName {
        if (epoch < 0 || baseOffset < 0) {
            throw new IllegalArgumentException("epoch and base offset must not be negative: " + epoch + ", " + baseOffset);
        }
    }

    /** The stem shared by the segment's files. */
    public String stem() {
        return String.format(Locale.ROOT, "%08x-%020d", epoch, baseOffset);
    }

    public String logFile() {
        return stem() + LOG_SUFFIX;
    }

    public String indexFile() {
        return stem() + INDEX_SUFFIX;
    }

    public String timeIndexFile() {
        return stem() + TIME_INDEX_SUFFIX;
    }

    /** The segment's aborted-transaction index, present once an ABORT marker landed in the segment. */
    public String txnIndexFile() {
        return stem() + TXN_INDEX_SUFFIX;
    }

    /** The segment a {@code .log} file name stands for; empty for any other name. */
    public static Optional<SegmentName> parseLogFile(String fileName) {
        int stemLength = EPOCH_DIGITS + 1 + OFFSET_DIGITS;
        if (fileName.length() != stemLength + LOG_SUFFIX.length() || !fileName.endsWith(LOG_SUFFIX)
                || fileName.charAt(EPOCH_DIGITS) != '-') {
            return Optional.empty();
        }
        try {
            int epoch = Integer.parseUnsignedInt(fileName.substring(0, EPOCH_DIGITS), 16);
            long base = Long.parseLong(fileName.substring(EPOCH_DIGITS + 1, stemLength));
            if (epoch < 0 || base < 0) {
                return Optional.empty();
            }
            SegmentName name = new SegmentName(epoch, base);
            // The parsers also take a sign ("+0000001") and upper-case hex ("0000000A"); such a name
            // would map to a different file than the one listed, and opening that one fails. Accept
            // only the exact spelling this class writes.
            return name.logFile().equals(fileName) ? Optional.of(name) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Offset order; on equal base offsets the newer epoch sorts last. */
    @Override
    public int compareTo(SegmentName other) {
        int byOffset = Long.compare(baseOffset, other.baseOffset);
        return byOffset != 0 ? byOffset : Integer.compare(epoch, other.epoch);
    }
}
