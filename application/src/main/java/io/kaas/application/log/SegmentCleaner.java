package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.domain.error.KafkaError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes a disk partition's old segments (deletion only; there is no compaction): retention by
 * time and size, DeleteRecords, and unlinking the files of removed segments strictly oldest first,
 * so a crash can never leave a hole before the live segments. It holds the queue of segments whose
 * files are not yet known to be unlinked and the log start offset the manifest holds.
 *
 * <p>Its fields are guarded by the partition lock ({@link DiskPartitionContext#lock}); its file work
 * runs under the I/O lock ({@link DiskPartitionContext#ioLock}), as the {@link GroupCommitter}'s and
 * close's do, on the caller's thread (the retention sweep, a DeleteRecords on the I/O executor).
 */
final class SegmentCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentCleaner.class);

    private final DiskPartitionContext partition;
    private final DiskSegments segments;
    private final GroupCommitter committer;

    /**
     * Segments taken out of the log whose files are not yet known to be unlinked, oldest first. Every
     * unlink re-drives them first: a newer segment's unlink must never become durable while an older
     * one's file remains, or recovery finds old segments, a hole, then the live ones - and drops
     * everything after the hole.
     */
    private final List<Segment> unlinkPending = new ArrayList<>();
    /** The log start the manifest on disk holds; retention may have moved the log's past it. */
    private long persistedLogStart;

    SegmentCleaner(DiskPartitionContext partition, DiskSegments segments, GroupCommitter committer) {
        this.partition = partition;
        this.segments = segments;
        this.committer = committer;
        this.persistedLogStart = segments.logStartOffset(); // recovery wrote it to the manifest
    }

    /**
     * Advances the log start to {@code offset} (DeleteRecords) and removes the closed segments it
     * wholly covers. The new log start is durable (manifest) before it takes effect, and before this
     * returns NONE: a failed attempt changes nothing, so the client's retry persists it rather than
     * being told "done" by a log start that only moved in memory.
     */
    KafkaError deleteRecordsBefore(long offset, LogConfig config) {
        synchronized (partition.lock()) {
            if (segments.isClosed()) {
                return KafkaError.NOT_LEADER_OR_FOLLOWER;
            }
            long end = segments.endOffset();
            if (offset < 0 || offset > end) {
                return KafkaError.OFFSET_OUT_OF_RANGE;
            }
            if (offset <= persistedLogStart) {
                return KafkaError.NONE;
            }
        }
        // File writes go under the I/O lock, as the committer's and close's do: two DeleteRecords, or one
        // racing a close, would otherwise interleave on the manifest's temp file.
        partition.ioLock().lock();
        try {
            long start;
            long hwm;
            synchronized (partition.lock()) {
                if (segments.isClosed()) {
                    return KafkaError.NOT_LEADER_OR_FOLLOWER; // another broker may own the directory now
                }
                start = Math.max(offset, persistedLogStart);
                hwm = segments.endOffset();
            }
            try {
                if (partition.fence().check()) {
                    return KafkaError.NOT_LEADER_OR_FOLLOWER;
                }
                writeManifest(hwm, start);
            } catch (IOException e) {
                LOG.error("DeleteRecords on {} could not persist the new log start {}", partition.topicPartition(),
                        offset, e);
                return KafkaError.KAFKA_STORAGE_ERROR;
            }
            synchronized (partition.lock()) {
                persistedLogStart = start;
                segments.advanceLogStart(start);
                removeClosedSegmentsBelow(segments.logStartOffset());
                segments.republish();
            }
            try {
                unlink(config);
            } catch (IOException e) {
                // the records are gone (the log start is durable); their files go at the next retention pass
                LOG.warn("DeleteRecords on {} could not unlink segments yet; retention retries",
                        partition.topicPartition(), e);
            }
            return KafkaError.NONE;
        } finally {
            partition.ioLock().unlock();
        }
    }

    /**
     * Drops closed segments past {@code retention.ms} (by their newest timestamp) or beyond
     * {@code retention.bytes}, oldest first, and any closed segment wholly below the log start (one
     * DeleteRecords covered while it was still being sealed). The active segment is never dropped.
     */
    void applyRetention(LogConfig config, long nowMs) {
        try {
            if (partition.fence().check()) {
                return; // the segments are the new leader's to remove
            }
        } catch (IOException e) {
            LOG.warn("retention skipped {}: its manifest is unreadable; the next pass retries",
                    partition.topicPartition(), e);
            return;
        }
        List<Segment> removed;
        synchronized (partition.lock()) {
            if (segments.isClosed()) {
                return; // retention runs only where the log is open (the leader)
            }
            if (!config.deleteRetention()) {
                return; // compact-only: nothing is deleted by age or size
            }
            List<Segment> all = segments.all();
            long total = 0;
            for (Segment s : all) {
                total += s.size();
            }
            int drop = 0;
            for (int i = 0; i < all.size() - 1; i++) {
                Segment s = all.get(i);
                boolean expired = config.retentionMs() >= 0 && nowMs - largestTimestamp(s) > config.retentionMs();
                boolean oversized = config.retentionBytes() >= 0 && total - s.size() >= config.retentionBytes();
                if (!expired && !oversized) {
                    break;
                }
                total -= s.size();
                drop++;
            }
            if (drop > 0) {
                segments.advanceLogStart(all.get(drop).name.baseOffset());
            }
            removed = removeClosedSegmentsBelow(segments.logStartOffset());
            if (removed.isEmpty() && unlinkPending.isEmpty()) {
                return;
            }
            segments.republish();
        }
        partition.ioLock().lock();
        try {
            synchronized (partition.lock()) {
                if (segments.isClosed()) {
                    removed.forEach(DiskSegments::closeQuietly); // the next open drops them below the log start
                    return;
                }
            }
            unlink(config);
            LOG.info("retention removed {} segment(s) of {}; log start is now {}", removed.size(),
                    partition.topicPartition(), segments.published().offsets().logStartOffset());
        } catch (IOException e) {
            LOG.warn("retention could not unlink segments of {}; the next pass retries", partition.topicPartition(), e);
        } finally {
            partition.ioLock().unlock();
        }
    }

    /**
     * Writes the manifest with the log as it is now (a clean close); from then on it is the log start
     * a DeleteRecords at or below it needs no new manifest for. Under the I/O lock.
     */
    void writeManifest() throws IOException {
        long hwm;
        long start;
        synchronized (partition.lock()) {
            hwm = segments.endOffset();
            start = segments.logStartOffset();
        }
        writeManifest(hwm, start);
        synchronized (partition.lock()) {
            persistedLogStart = Math.max(persistedLogStart, start);
        }
    }

    private void writeManifest(long highWatermark, long logStart) throws IOException {
        partition.writeJson(partition.files().manifest(),
                new PartitionState.Manifest(segments.epoch(), highWatermark, logStart));
    }

    /**
     * A segment's age for retention: its newest record timestamp or, for a segment without any (written
     * by pre-0.10 clients), its file's modification time, as Apache does.
     */
    private long largestTimestamp(Segment segment) {
        if (segment.maxTimestamp() >= 0) {
            return segment.maxTimestamp();
        }
        try {
            return partition.fs().lastModifiedMs(partition.files().log(segment.name));
        } catch (IOException e) {
            return Long.MAX_VALUE; // unknown age: keep it, the next pass asks again
        }
    }

    /**
     * Takes out of the log the closed segments ending at or below {@code offset}, but none the
     * committer is still sealing, and queues them for {@link #unlink}. Under the lock.
     */
    private List<Segment> removeClosedSegmentsBelow(long offset) {
        List<Segment> removed = segments.removeClosedBelow(offset, committer::isSealing);
        unlinkPending.addAll(removed);
        return removed;
    }

    /**
     * Unlinks the files of every segment taken out of the log and not yet unlinked, oldest first,
     * and makes that durable; what fails stays queued for the next call (a retention pass re-drives
     * it). Handles stay open a while for readers already holding a snapshot (POSIX keeps unlinked
     * files readable), then close. Under the I/O lock.
     */
    private void unlink(LogConfig config) throws IOException {
        List<Segment> removed;
        synchronized (partition.lock()) {
            removed = List.copyOf(unlinkPending);
        }
        if (removed.isEmpty()) {
            return;
        }
        Filesystem fs = partition.fs();
        PartitionFiles files = partition.files();
        for (Segment s : removed) {
            fs.delete(files.log(s.name));
            fs.delete(files.index(s.name));
            fs.delete(files.timeIndex(s.name));
            fs.delete(files.txnIndex(s.name));
        }
        fs.fsyncDirectory(files.dir());
        synchronized (partition.lock()) {
            unlinkPending.removeAll(removed);
        }
        // Readers holding an older snapshot may still read the segment: its handle stays open file.delete.delay.ms.
        partition.scheduler().schedule(() -> removed.forEach(DiskSegments::closeQuietly), config.fileDeleteDelayMs());
    }
}
