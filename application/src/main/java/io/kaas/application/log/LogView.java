package io.kaas.application.log;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What readers of a disk log see: an immutable snapshot of its segments and offsets, published
 * after every append, and the reads over it. Reads never take the partition lock, and never copy
 * record bytes: they find where the answer starts and ends by walking batch headers near the sparse
 * index's entries, and return that region of the segment file for the kernel to send.
 */
record LogView(List<Segment.View> closed, Segment.View active, LogOffsets offsets) {

    int count() {
        return closed.size() + 1;
    }

    Segment.View get(int i) {
        return i < closed.size() ? closed.get(i) : active;
    }

    /** Index of the last segment whose base offset is at or below {@code offset}, or 0. */
    int segmentIndexFor(long offset) {
        int lo = 0;
        int hi = count() - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (get(mid).baseOffset() <= offset) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    long sizeInBytes() {
        long bytes = 0;
        for (int i = 0; i < count(); i++) {
            bytes += get(i).endPosition();
        }
        return bytes;
    }

    /**
     * Whole batches of one segment from the one holding {@code fetchOffset}, below the high
     * watermark (read_committed: the last stable offset) and within {@code maxBytes} — except that
     * with {@code minOneBatch} the first batch is returned even when it alone is larger (KIP-74).
     */
    LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        if (fetchOffset < offsets.logStartOffset() || fetchOffset > offsets.highWatermark()) {
            return LogRead.failed(KafkaError.OFFSET_OUT_OF_RANGE, offsets);
        }
        long cap = readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
        if (fetchOffset >= cap) {
            return LogRead.empty(offsets);
        }
        try {
            for (int i = segmentIndexFor(fetchOffset); i < count(); i++) {
                Segment.View segment = get(i);
                // a compacted log may hold segments the cleaner emptied, and gaps before a segment's start
                if (fetchOffset < segment.endOffset() && segment.endPosition() > 0) {
                    Region region = regionOf(segment, Math.max(fetchOffset, segment.baseOffset()), maxBytes,
                            minOneBatch, cap);
                    if (region == null) {
                        return LogRead.empty(offsets);
                    }
                    RecordsSlice records = new RecordsSlice.FileSlice(segment.segment().log, region.start,
                            region.end - region.start);
                    return readCommitted
                            ? new LogRead(KafkaError.NONE, offsets, records, abortedIn(i, fetchOffset, region.endOffset))
                            : new LogRead(KafkaError.NONE, offsets, records);
                }
            }
            return LogRead.empty(offsets);
        } catch (IOException e) {
            return LogRead.failed(KafkaError.KAFKA_STORAGE_ERROR, offsets);
        }
    }

    /** Byte positions of whole batches and the offset after the last of them. */
    private record Region(int start, int end, long endOffset) {
    }

    /** Where a read of {@code segment} starts and ends, or null when no batch fits. */
    private static Region regionOf(Segment.View segment, long fetchOffset, int maxBytes, boolean minOneBatch, long cap)
            throws IOException {
        BatchScanner scanner = new BatchScanner(segment.segment().log, BatchScanner.SMALL_CHUNK);
        Batch first = firstBatchEndingAtOrAfter(scanner, segment, fetchOffset);
        if (first == null || first.baseOffset >= cap) {
            return null;
        }
        int capPosition = cap >= segment.endOffset() ? segment.endPosition() : positionOf(scanner, segment, cap);
        long limit = Math.min((long) first.position + maxBytes, capPosition);
        if (first.position + first.size > limit) {
            return minOneBatch && first.position + first.size <= capPosition
                    ? new Region(first.position, first.position + first.size, first.lastOffset + 1) : null;
        }
        return lastWholeBatchEnd(scanner, segment, first, (int) limit);
    }

    private record Batch(int position, int size, long baseOffset, long lastOffset) {
    }

    /** The batch holding {@code offset}, or the first after it: walked from the index entry below it. */
    private static Batch firstBatchEndingAtOrAfter(BatchScanner scanner, Segment.View segment, long offset)
            throws IOException {
        Batch[] found = {null};
        scanner.scan(segment.index().floorPosition(offset - segment.baseOffset()), segment.endPosition(), -1,
                Long.MAX_VALUE, false, (position, header) -> {
                    if (header.lastOffset() < offset) {
                        return true;
                    }
                    found[0] = new Batch(position, header.sizeInBytes(), header.baseOffset(), header.lastOffset());
                    return false;
                });
        return found[0];
    }

    /** Position of the batch starting at {@code offset} (a batch boundary, like the last stable offset). */
    private static int positionOf(BatchScanner scanner, Segment.View segment, long offset) throws IOException {
        int[] position = {segment.endPosition()};
        scanner.scan(segment.index().floorPosition(offset - segment.baseOffset()), segment.endPosition(), -1,
                Long.MAX_VALUE, false, (at, header) -> {
                    if (header.baseOffset() < offset) {
                        return true;
                    }
                    position[0] = at;
                    return false;
                });
        return position[0];
    }

    /** The region from {@code first} to the end of the last whole batch at or below {@code limit}. */
    private static Region lastWholeBatchEnd(BatchScanner scanner, Segment.View segment, Batch first, int limit)
            throws IOException {
        int from = Math.max(first.position, segment.index().floorPositionAtOrBelow(limit));
        int[] end = {first.position + first.size};
        long[] endOffset = {first.lastOffset + 1};
        scanner.scan(from, segment.endPosition(), -1, Long.MAX_VALUE, false, (position, header) -> {
            int batchEnd = position + header.sizeInBytes();
            if (batchEnd > limit) {
                // every batch before this one is whole and within the limit, those before the walk's start too
                end[0] = Math.max(end[0], position);
                endOffset[0] = Math.max(endOffset[0], header.baseOffset());
                return false;
            }
            end[0] = Math.max(end[0], batchEnd);
            endOffset[0] = Math.max(endOffset[0], header.lastOffset() + 1);
            return true;
        });
        return new Region(first.position, end[0], endOffset[0]);
    }

    /**
     * The aborted transactions overlapping what a read returned: their markers lie in the read's
     * segment or a later one, so the indexes are walked from there (Apache's
     * {@code collectAbortedTransactions}).
     */
    private List<AbortedTxn> abortedIn(int fromSegment, long fetchOffset, long upperBound) {
        List<AbortedTxn> aborted = new ArrayList<>();
        for (int i = fromSegment; i < count(); i++) {
            Segment.View segment = get(i);
            if (TransactionalState.collect(segment.segment().aborted, segment.abortedCount(), fetchOffset, upperBound,
                    aborted)) {
                break;
            }
        }
        return aborted;
    }

    /**
     * The first record, in offset order, whose timestamp is at least {@code timestamp} (Apache's
     * {@code fetchOffsetByTimestamp}): in a segment reaching it, the time index finds where to start,
     * batch headers the first batch reaching it, and only such a batch is read whole and searched by
     * {@code records}. Never an offset below the log start (Apache searches from it too): batches
     * DeleteRecords left in the first segment are skipped, and so are the records below it in a batch
     * straddling it. When every record reaching the timestamp in that segment lies below the log
     * start, the search goes on in the next segment, where Apache would answer nothing.
     */
    Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records) {
        long logStart = offsets.logStartOffset();
        try {
            for (int i = segmentIndexFor(logStart); i < count(); i++) {
                Segment.View segment = get(i);
                if (segment.maxTimestamp() >= timestamp) {
                    Optional<TimestampOffset> found = firstRecordAtOrAfter(segment, timestamp, logStart, records);
                    if (found.isPresent()) {
                        return found;
                    }
                }
            }
        } catch (IOException e) {
            // retention deleted the segment under the lookup: nothing found, as for a log that moved on
        }
        return Optional.empty();
    }

    private static Optional<TimestampOffset> firstRecordAtOrAfter(Segment.View segment, long timestamp, long logStart,
                                                                  BatchRecordSearch records) throws IOException {
        int from = segment.index().scanStartForTimestamp(timestamp);
        for (FoundBatch batch = firstBatchAtOrAfter(segment, from, timestamp, logStart); batch != null;
             batch = firstBatchAtOrAfter(segment, batch.end(), timestamp, logStart)) {
            Optional<TimestampOffset> found =
                    records.firstAtOrAfter(batch.read(segment), timestamp, logStart).map(TimestampOffset::of);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * As Apache 3.7: the largest timestamp with the last offset of the first batch holding it (not
     * the record's own offset: 3.7 answers the batch's, KAFKA-16310 changed that only in 3.8).
     */
    Optional<TimestampOffset> maxTimestamp() {
        Segment.View newest = null;
        for (int i = 0; i < count(); i++) {
            Segment.View segment = get(i);
            if (segment.endPosition() > 0 && (newest == null || segment.maxTimestamp() > newest.maxTimestamp())) {
                newest = segment;
            }
        }
        if (newest == null) {
            return Optional.empty();
        }
        long max = newest.maxTimestamp();
        try {
            FoundBatch batch = firstBatchAtOrAfter(newest, newest.index().scanStartForTimestamp(max), max,
                    Long.MIN_VALUE);
            return Optional.ofNullable(batch).map(b -> new TimestampOffset(max, b.lastOffset));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A batch of a segment file: where it lies and its last offset. */
    private record FoundBatch(int position, int size, long lastOffset) {
        int end() {
            return position + size;
        }

        /** The batch's whole bytes. */
        ByteBuffer read(Segment.View segment) throws IOException {
            ByteBuffer bytes = ByteBuffer.allocate(size);
            while (bytes.hasRemaining()) {
                if (segment.segment().log.read(bytes, position + bytes.position()) < 0) {
                    throw new EOFException("segment ends inside the batch at " + position);
                }
            }
            return bytes.flip();
        }
    }

    /**
     * From {@code from}, the first batch of the segment reaching {@code timestamp} that ends at or
     * after {@code fromOffset}; null when none does.
     */
    private static FoundBatch firstBatchAtOrAfter(Segment.View segment, int from, long timestamp, long fromOffset)
            throws IOException {
        FoundBatch[] found = {null};
        new BatchScanner(segment.segment().log).scan(from, segment.endPosition(), -1, Long.MAX_VALUE, false,
                (position, header) -> {
                    if (header.maxTimestamp() < timestamp || header.lastOffset() < fromOffset) {
                        return true;
                    }
                    found[0] = new FoundBatch(position, header.sizeInBytes(), header.lastOffset());
                    return false;
                });
        return found[0];
    }
}
