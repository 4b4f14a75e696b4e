package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * The segments of one partition on disk, oldest first and the active one last, with the log start
 * offset and the read snapshot ({@link LogView}) published from them. The append core of a
 * {@link DiskPartitionLog}: writes at the log end, starts segments, publishes; it never fsyncs
 * (that is the {@link GroupCommitter}'s) and never removes files (the {@link SegmentCleaner}'s).
 *
 * <p>Every field but {@link #published} is guarded by the partition lock
 * ({@link DiskPartitionContext#lock}): every method here expects its caller to hold it, except the
 * lock-free {@link #published()}, and {@link #all()} and {@link #closeHandles()} once the log is
 * closed (nothing changes the list then).
 */
final class DiskSegments {
    private final DiskPartitionContext partition;
    private final int epoch;
    /** Read, under the lock, for the last stable offset each snapshot publishes. */
    private final ProducerStateTable producers;

    private final List<Segment> segments;
    private long logStartOffset;
    /** The segment handles are closing or closed (shutdown, relinquish, topic deleted): nothing writes any more. */
    private boolean closed;
    /** Views of every segment but the active one, reused by each snapshot until the segment list changes. */
    private List<Segment.View> closedViews;
    /** What readers see; replaced, never changed, on every append and every change of the segment list. */
    private volatile LogView published;

    DiskSegments(DiskPartitionContext partition, ProducerStateTable producers, PartitionRecovery.Recovered recovered) {
        this.partition = partition;
        this.producers = producers;
        this.epoch = recovered.epoch();
        this.segments = new ArrayList<>(recovered.segments());
        this.logStartOffset = recovered.logStartOffset();
        this.closedViews = closedViews();
        publish();
    }

    int epoch() {
        return epoch;
    }

    Segment active() {
        return segments.get(segments.size() - 1);
    }

    /** The offset the next batch gets: the log end offset, which is also the high watermark. */
    long endOffset() {
        return active().nextOffset();
    }

    /** Every segment, oldest first; the active one last. */
    List<Segment> all() {
        return Collections.unmodifiableList(segments);
    }

    long logStartOffset() {
        return logStartOffset;
    }

    /** Moves the log start forward to {@code offset}; never back. */
    void advanceLogStart(long offset) {
        logStartOffset = Math.max(logStartOffset, offset);
    }

    boolean isClosed() {
        return closed;
    }

    /** Marks the log closed; false when it already was. */
    boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    /**
     * Starts a new, empty active segment at the log end; returns the one it replaces, which the
     * {@link GroupCommitter} must now seal.
     */
    Segment roll(LogConfig config, long nowMs) throws IOException {
        Segment old = active();
        SegmentName name = new SegmentName(epoch, old.nextOffset());
        FileHandle handle = partition.fs().open(partition.files().log(name), true);
        segments.add(new Segment(name, handle, new SegmentIndex(), config.indexIntervalBytes(), nowMs));
        closedViews = closedViews();
        return old;
    }

    /**
     * Writes a batch at the end of the active segment: rewrites its base offset and leader epoch in
     * place (not covered by the CRC), then one positional write into the page cache. A failed write
     * leaves nothing that could pass for a batch.
     */
    void write(ByteBuffer batch, RecordBatchHeader header) throws IOException {
        Segment active = active();
        int position = stamp(header);
        try {
            active.log.write(batch.duplicate(), position);
        } catch (IOException e) {
            discardTail(active, position);
            throw new IOException("cannot write " + partition.topicPartition() + ": " + e.getMessage(), e);
        }
        active.added(position, header);
    }

    /**
     * Rewrites the batch's base offset and leader epoch in place for the end of the active segment (fields the CRC
     * does not cover); the byte position it goes to there.
     */
    int stamp(RecordBatchHeader header) {
        Segment active = active();
        header.setBaseOffset(active.nextOffset());
        header.setPartitionLeaderEpoch(epoch);
        return active.size();
    }

    /**
     * Opens the active segment's {@code .txnindex} unless it is open; true when this created the
     * file, whose directory entry now needs an fsync.
     */
    boolean openTxnIndex() throws IOException {
        Segment active = active();
        if (active.txnIndex != null) {
            return false;
        }
        active.txnIndex = partition.fs().open(partition.files().txnIndex(active.name), true);
        return true;
    }

    /**
     * Takes the oldest closed segments ending at or below {@code offset} out of the list, stopping at
     * the first one to {@code keep}; returns them, oldest first. The active segment always stays.
     */
    List<Segment> removeClosedBelow(long offset, Predicate<Segment> keep) {
        List<Segment> removed = new ArrayList<>();
        while (segments.size() > 1 && segments.get(0).nextOffset() <= offset && !keep.test(segments.get(0))) {
            removed.add(segments.remove(0));
        }
        return removed;
    }

    /**
     * Puts {@code cleaned} in place of {@code replaced}, consecutive segments of the list (a
     * cleaning's swap); false, changing nothing, when they no longer are (retention or DeleteRecords
     * removed some meanwhile). The caller republishes.
     */
    boolean replace(List<Segment> replaced, Segment cleaned) {
        int first = segments.indexOf(replaced.get(0));
        if (first < 0 || first + replaced.size() >= segments.size()) {
            return false; // gone, or reaching the active segment
        }
        for (int i = 0; i < replaced.size(); i++) {
            if (segments.get(first + i) != replaced.get(i)) {
                return false;
            }
        }
        segments.subList(first, first + replaced.size()).clear();
        segments.add(first, cleaned);
        return true;
    }

    /** Publishes a new read snapshot after an append. */
    void publish() {
        long end = endOffset();
        published = new LogView(closedViews, active().view(), new LogOffsets(logStartOffset, end, end,
                TransactionalState.lastStableOffset(producers, end)));
    }

    /** Publishes a new read snapshot after the segment list or the log start changed. */
    void republish() {
        closedViews = closedViews();
        publish();
    }

    /** The latest snapshot; lock-free. */
    LogView published() {
        return published;
    }

    /** Closes every segment's handles; for a log nothing writes to any more. */
    void closeHandles() {
        segments.forEach(DiskSegments::closeQuietly);
    }

    static void closeQuietly(Segment segment) {
        try {
            segment.close();
        } catch (IOException ignored) {
            // closing a read/write handle loses nothing: durability came from force()
        }
    }

    private List<Segment.View> closedViews() {
        List<Segment.View> views = new ArrayList<>(segments.size() - 1);
        for (int i = 0; i < segments.size() - 1; i++) {
            views.add(segments.get(i).view());
        }
        return List.copyOf(views);
    }

    /** Best effort: cut bytes of a failed write so they cannot be mistaken for a batch. */
    private static void discardTail(Segment segment, int position) {
        try {
            segment.log.truncate(position);
        } catch (IOException ignored) {
            // recovery's CRC scan truncates whatever remains after a crash; until then reads stop at the published end
        }
    }
}
