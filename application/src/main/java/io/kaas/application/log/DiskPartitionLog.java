package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition log in epoch-named segment files on the {@link Filesystem} port.
 *
 * <p>Appends run under the partition lock and only write (a positional write into the page cache)
 * and publish a new read snapshot; they never fsync. A per-partition committer, single-flight on
 * the I/O executor, does everything slow: the group-commit fsync that completes every waiting
 * {@code acks=-1} append it covers, directory fsyncs for new segment files, sealing rolled segments
 * (fsync, index files, producer snapshot) and the recovery checkpoint every
 * {@value #CHECKPOINT_INTERVAL_BYTES} bytes. Transaction markers always ask for an fsync, and an
 * ABORT of a transaction with records here also lands in the segment's {@code .txnindex}. An fsync that outlives the watchdog, or fails, stalls
 * the partition for good: later appends fail fast with KAFKA_STORAGE_ERROR.
 */
final class DiskPartitionLog extends ProducerTrackingLog {
    private static final Logger LOG = LoggerFactory.getLogger(DiskPartitionLog.class);
    /** By default, refresh the recovery checkpoint once this many more bytes of the active segment are fsynced. */
    static final long CHECKPOINT_INTERVAL_BYTES = 64L * 1024 * 1024;

    private final TopicPartition topicPartition;
    private final PartitionFiles files;
    private final Filesystem fs;
    private final JsonCodec codec;
    private final Executor io;
    private final Executor appendQueue;
    private final Scheduler scheduler;
    private final long fsyncMaxLatencyMs;
    private final long checkpointIntervalBytes;
    private volatile LogConfig config;

    // --- append state, guarded by this ---
    private final List<Segment> segments;
    private final int epoch;
    private final TakeoverFence fence;
    private long logStartOffset;
    /** The log start the manifest on disk holds; retention may have moved {@link #logStartOffset} past it. */
    private long persistedLogStart;
    private long unflushedMessages;
    /** When an append last asked for an fsync, for {@code flush.ms}; -1 until the first append. */
    private long lastFlushRequestMs = -1L;
    private long requestedFlushOffset;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final List<Segment> sealing = new ArrayList<>();
    /**
     * Segments taken out of the log whose files are not yet known to be unlinked, oldest first. Every
     * unlink re-drives them first: a newer segment's unlink must never become durable while an older
     * one's file remains, or recovery finds old segments, a hole, then the live ones - and drops
     * everything after the hole.
     */
    private final List<Segment> unlinkPending = new ArrayList<>();
    private PartitionState.ProducerSnapshot pendingSnapshot;
    private boolean directoryDirty;
    private boolean committerRunning;
    private boolean closed;
    private List<Segment.View> closedViews;

    // --- committer state ---
    /** Held while the committer works, and by close, so file writes never interleave. */
    private final ReentrantLock ioLock = new ReentrantLock();
    private volatile long flushedOffset;
    /** Guarded by this: the segment and position of the last recovery checkpoint. */
    private SegmentName checkpointedSegment;
    private long checkpointedPosition;

    private volatile String failure;
    private volatile LogView published;

    DiskPartitionLog(TopicPartition topicPartition, PartitionFiles files, Filesystem fs, JsonCodec codec, Executor io,
                     Scheduler scheduler, AppendListener listener, long fsyncMaxLatencyMs, long checkpointIntervalBytes,
                     LogConfig config, PartitionRecovery.Recovered recovered) {
        super(recovered.producers(), listener);
        this.topicPartition = topicPartition;
        this.files = files;
        this.fs = fs;
        this.codec = codec;
        this.io = io;
        this.appendQueue = new SerialExecutor(io);
        this.scheduler = scheduler;
        this.fsyncMaxLatencyMs = fsyncMaxLatencyMs;
        this.checkpointIntervalBytes = checkpointIntervalBytes;
        this.config = config;
        this.segments = new ArrayList<>(recovered.segments());
        this.epoch = recovered.epoch();
        this.fence = new TakeoverFence(fs, codec, files, topicPartition, epoch);
        this.logStartOffset = recovered.logStartOffset();
        this.persistedLogStart = recovered.logStartOffset(); // recovery wrote it to the manifest
        long end = active().nextOffset();
        this.requestedFlushOffset = end;
        this.flushedOffset = end;
        this.checkpointedSegment = active().name;
        this.checkpointedPosition = recovered.checkpointedPosition();
        this.closedViews = closedViews();
        publish();
    }

    @Override
    public TopicPartition topicPartition() {
        return topicPartition;
    }

    @Override
    public Executor appendQueue() {
        return appendQueue;
    }

    @Override
    public int leaderEpoch() {
        return epoch;
    }

    @Override
    public void updateConfig(LogConfig newConfig) {
        config = newConfig;
    }

    // ------------------------------------------------------------------------------------------ append steps, under the lock

    /** Why no append may happen now, or null. */
    @Override
    protected AppendResult refusal() {
        if (fence.tripped()) {
            return new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, fence.notLeader().getMessage());
        }
        if (closed) {
            return new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, "The log of " + topicPartition
                    + " is closed");
        }
        String failed = failure;
        return failed == null ? null : new AppendResult.Rejected(KafkaError.KAFKA_STORAGE_ERROR, failed);
    }

    @Override
    protected long logStartOffset() {
        return logStartOffset;
    }

    /**
     * Writes a classified batch at the log end: rolls if the active segment is full, rewrites the
     * base offset and leader epoch in place, one positional write. A roll first asks the
     * {@link TakeoverFence}; a deposed leader gets the fence's NOT_LEADER_OR_FOLLOWER thrown.
     */
    @Override
    protected RecordBatchHeader storeAtEnd(ByteBuffer batch, RecordBatchHeader header, long nowMs) throws IOException {
        int size = batch.remaining();
        try {
            if (active().isFull(header, size, config.segmentBytes(), config.segmentMs(), nowMs)) {
                if (fence.check()) {
                    io.execute(() -> stop(fence.notLeader()));
                    throw fence.notLeader();
                }
                roll(nowMs);
            }
        } catch (IOException e) {
            throw new IOException("cannot roll " + topicPartition + ": " + e.getMessage(), e);
        }
        Segment active = active();
        header.setBaseOffset(active.nextOffset());
        header.setPartitionLeaderEpoch(epoch);
        int position = active.size();
        try {
            active.log.write(batch.duplicate(), position);
        } catch (IOException e) {
            discardTail(active, position);
            throw new IOException("cannot write " + topicPartition + ": " + e.getMessage(), e);
        }
        active.added(position, header);
        return header;
    }

    /** Into the active segment's {@code .txnindex}, opening its file first. */
    @Override
    protected AppendResult indexAborted(AbortedTxn entry) {
        try {
            Segment active = active();
            if (active.txnIndex == null) {
                active.txnIndex = fs.open(files.txnIndex(active.name), true);
                directoryDirty = true;
            }
            active.addAborted(entry);
            return null;
        } catch (IOException e) {
            // The marker is in the log but its index entry is not: stop here rather than serve
            // read_committed fetches that miss an aborted transaction; recovery rebuilds the entry.
            String reason = "cannot write the transaction index of " + topicPartition + ": " + e.getMessage();
            publish();
            stallLater(reason);
            return storageError(reason);
        }
    }

    @Override
    protected AppendListener.Append publishAppend(RecordBatchHeader stored, int size) {
        publish();
        return new AppendListener.Append(topicPartition, stored.baseOffset(), size, published.offsets());
    }

    /** A marker always waits for an fsync; records as the topic's flush settings say. */
    @Override
    protected CompletionStage<Void> durable(RecordBatchHeader stored, boolean marker, long nowMs) {
        if (marker) {
            return requestFlush(nowMs);
        }
        LogConfig cfg = config;
        unflushedMessages += stored.recordsCount();
        if (lastFlushRequestMs < 0) {
            lastFlushRequestMs = nowMs;
        }
        boolean flush = unflushedMessages >= cfg.flushIntervalMessages()
                || nowMs - lastFlushRequestMs >= cfg.flushIntervalMs();
        return flush ? requestFlush(nowMs) : CompletableFuture.completedFuture(null);
    }

    /** Asks the committer for an fsync up to the log end; the stage completes when it is done. Under the lock. */
    private CompletionStage<Void> requestFlush(long nowMs) {
        unflushedMessages = 0;
        lastFlushRequestMs = nowMs;
        requestedFlushOffset = active().nextOffset();
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        waiters.addLast(new Waiter(requestedFlushOffset, waiter));
        startCommitterIfIdle();
        return waiter;
    }

    /** {@link #stall} from under the lock: the waiters it fails must be completed outside it. */
    private void stallLater(String reason) {
        io.execute(() -> stall(reason));
    }

    /** Best effort: cut bytes of a failed write so they cannot be mistaken for a batch. */
    private static void discardTail(Segment segment, int position) {
        try {
            segment.log.truncate(position);
        } catch (IOException ignored) {
            // recovery's CRC scan truncates whatever remains after a crash; until then reads stop at the published end
        }
    }

    /** Starts a new segment at the log end; the old one is sealed by the committer. Under the lock. */
    private void roll(long nowMs) throws IOException {
        Segment old = active();
        SegmentName name = new SegmentName(epoch, old.nextOffset());
        FileHandle handle = fs.open(files.log(name), true);
        segments.add(new Segment(name, handle, new SegmentIndex(), config.indexIntervalBytes(), nowMs));
        sealing.add(old);
        closedViews = closedViews();
        pendingSnapshot = PartitionState.ProducerSnapshot.of(old.nextOffset(), producers.windows());
        directoryDirty = true;
        startCommitterIfIdle();
    }

    private Segment active() {
        return segments.get(segments.size() - 1);
    }

    /** Publishes a new read snapshot; closed segments' views are reused until the segment list changes. */
    private void publish() {
        long end = active().nextOffset();
        published = new LogView(closedViews, active().view(), new LogOffsets(logStartOffset, end, end,
                TransactionalState.lastStableOffset(producers, end)));
    }

    /** Views of every segment but the active one; recomputed when segments roll or go. Under the lock. */
    private List<Segment.View> closedViews() {
        List<Segment.View> views = new ArrayList<>(segments.size() - 1);
        for (int i = 0; i < segments.size() - 1; i++) {
            views.add(segments.get(i).view());
        }
        return List.copyOf(views);
    }

    // ------------------------------------------------------------------------------------------ committer

    private void startCommitterIfIdle() {
        if (!committerRunning) {
            committerRunning = true;
            io.execute(this::runCommitter);
        }
    }

    /**
     * Work sampled under the lock: every byte below {@code target} lies in {@code toForce}. A due
     * checkpoint is sampled at the same instant, so its position, offset and snapshot agree.
     */
    private record Work(long target, List<Segment> toForce, List<Segment> sealed, boolean syncDirectory,
                        PartitionState.ProducerSnapshot rollSnapshot, Checkpoint checkpoint) {
    }

    /** A recovery checkpoint to write once the active segment is fsynced past {@code position}. */
    private record Checkpoint(Segment segment, int position, SegmentIndex.View index,
                              PartitionState.ProducerSnapshot snapshot) {
    }

    private void runCommitter() {
        while (true) {
            Work work;
            synchronized (this) {
                boolean flushDue = requestedFlushOffset > flushedOffset;
                if (failure != null || closed || (!flushDue && sealing.isEmpty() && !directoryDirty && pendingSnapshot == null)) {
                    committerRunning = false;
                    return;
                }
                List<Segment> toForce = new ArrayList<>(sealing);
                toForce.add(active());
                work = new Work(requestedFlushOffset, toForce, List.copyOf(sealing), directoryDirty, pendingSnapshot,
                        dueCheckpoint());
                directoryDirty = false;
                pendingSnapshot = null;
            }
            ioLock.lock();
            Scheduler.Cancellable watchdog = scheduler.schedule(() -> stall("an fsync of " + topicPartition
                    + " took longer than " + fsyncMaxLatencyMs + " ms"), fsyncMaxLatencyMs);
            try {
                commit(work);
            } catch (KafkaException superseded) {
                stop(superseded);
                return;
            } catch (IOException | RuntimeException e) {
                stall("fsync of " + topicPartition + " failed: " + e.getMessage());
                return;
            } finally {
                watchdog.cancel();
                ioLock.unlock();
            }
            if (failure != null) {
                return; // the watchdog fired while we were blocked: the waiters have been failed already
            }
            synchronized (this) {
                sealing.removeAll(work.sealed);
            }
            completeWaiters(work.target);
        }
    }

    /** Completes every waiter whose batch lies below {@code durableOffset}, now fsynced. */
    private void completeWaiters(long durableOffset) {
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            flushedOffset = Math.max(flushedOffset, durableOffset);
            while (!waiters.isEmpty() && waiters.peekFirst().offset <= durableOffset) {
                done.add(waiters.pollFirst());
            }
        }
        done.forEach(w -> w.future.complete(null));
    }

    private void commit(Work work) throws IOException {
        boolean writesState = !work.sealed.isEmpty() || work.rollSnapshot != null || work.checkpoint != null;
        if (writesState && fence.check()) {
            throw fence.notLeader(); // the index files, snapshot and checkpoint are the new leader's now
        }
        if (work.syncDirectory) {
            fs.fsyncDirectory(files.dir());
        }
        for (Segment s : work.toForce) {
            s.force();
        }
        for (Segment s : work.sealed) {
            writeIndexFiles(s, s.index.view());
        }
        if (work.rollSnapshot != null && work.checkpoint == null) { // a checkpoint carries a newer snapshot
            fs.writeAtomically(files.producerSnapshot(), codec.encode(work.rollSnapshot));
        }
        if (work.checkpoint != null) {
            Checkpoint c = work.checkpoint;
            writeIndexFiles(c.segment, c.index);
            fs.writeAtomically(files.producerSnapshot(), codec.encode(c.snapshot));
            fs.writeAtomically(files.checkpoint(), codec.encode(
                    new PartitionState.Checkpoint(c.segment.name.stem(), c.position, c.snapshot.offset())));
        }
    }

    /**
     * A checkpoint of the active segment as it is now, if it grew {@code checkpointIntervalBytes}
     * past the last one, or rolled since. Recovery then only scans what follows, and only fsyncs
     * what follows: refreshing it on roll keeps that to the active segment even when segments are
     * much smaller than the interval (otherwise no checkpoint would ever name a live segment, and
     * every recovery would fsync every segment). Under the lock.
     */
    private Checkpoint dueCheckpoint() {
        Segment active = active();
        boolean rolled = !active.name.equals(checkpointedSegment);
        if (!rolled && active.size() - checkpointedPosition < checkpointIntervalBytes) {
            return null;
        }
        checkpointedSegment = active.name;
        checkpointedPosition = active.size();
        return new Checkpoint(active, active.size(), active.index.view(),
                PartitionState.ProducerSnapshot.of(active.nextOffset(), producers.windows()));
    }

    private void writeIndexFiles(Segment segment, SegmentIndex.View index) throws IOException {
        writeFile(files.index(segment.name), index.indexBytes());
        writeFile(files.timeIndex(segment.name), index.timeIndexBytes());
    }

    private void writeFile(Path path, ByteBuffer content) throws IOException {
        try (FileHandle handle = fs.open(path, true)) {
            handle.truncate(0);
            handle.write(content, 0);
            handle.force();
        }
    }

    /** Sticky failure: fail every waiter; appends fail fast from now on. */
    private void stall(String reason) {
        stop(reason, new IOException(reason));
    }

    /** Superseded: the appends still waiting for an fsync are not acknowledged, nothing more is written. */
    private void stop(KafkaException superseded) {
        stop(superseded.getMessage(), superseded);
    }

    private void stop(String reason, Exception waitersSee) {
        List<Waiter> failed;
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = reason;
            committerRunning = false;
            failed = new ArrayList<>(waiters);
            waiters.clear();
        }
        failed.forEach(w -> w.future.completeExceptionally(waitersSee));
    }

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }

    // ------------------------------------------------------------------------------------------ read

    @Override
    public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        return published.read(fetchOffset, maxBytes, minOneBatch, readCommitted);
    }

    @Override
    public LogOffsets offsets() {
        return published.offsets();
    }

    @Override
    public long sizeInBytes() {
        return published.sizeInBytes();
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        return published.offsetForTimestamp(timestamp);
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        return published.maxTimestamp();
    }

    // ------------------------------------------------------------------------------------------ retention

    /**
     * Advances the log start to {@code offset} (DeleteRecords) and removes the closed segments it
     * wholly covers. The new log start is durable (manifest) before it takes effect, and before this
     * returns NONE: a failed attempt changes nothing, so the client's retry persists it rather than
     * being told "done" by a log start that only moved in memory.
     */
    @Override
    public KafkaError deleteRecordsBefore(long offset) {
        synchronized (this) {
            if (closed) {
                return KafkaError.NOT_LEADER_OR_FOLLOWER;
            }
            long end = active().nextOffset();
            if (offset < 0 || offset > end) {
                return KafkaError.OFFSET_OUT_OF_RANGE;
            }
            if (offset <= persistedLogStart) {
                return KafkaError.NONE;
            }
        }
        // File writes go under the I/O lock, as the committer's and close's do: two DeleteRecords, or one
        // racing a close, would otherwise interleave on the manifest's temp file.
        ioLock.lock();
        try {
            long start;
            long hwm;
            synchronized (this) {
                if (closed) {
                    return KafkaError.NOT_LEADER_OR_FOLLOWER; // another broker may own the directory now
                }
                start = Math.max(offset, persistedLogStart);
                hwm = active().nextOffset();
            }
            try {
                if (fence.check()) {
                    return KafkaError.NOT_LEADER_OR_FOLLOWER;
                }
                fs.writeAtomically(files.manifest(), codec.encode(new PartitionState.Manifest(epoch, hwm, start)));
            } catch (IOException e) {
                LOG.error("DeleteRecords on {} could not persist the new log start {}", topicPartition, offset, e);
                return KafkaError.KAFKA_STORAGE_ERROR;
            }
            synchronized (this) {
                persistedLogStart = start;
                if (start > logStartOffset) {
                    logStartOffset = start;
                }
                dropClosedSegmentsBelow(logStartOffset);
                closedViews = closedViews();
                publish();
            }
            try {
                unlink();
            } catch (IOException e) {
                // the records are gone (the log start is durable); their files go at the next retention pass
                LOG.warn("DeleteRecords on {} could not unlink segments yet; retention retries", topicPartition, e);
            }
            return KafkaError.NONE;
        } finally {
            ioLock.unlock();
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Drops closed segments past {@code retention.ms} (by their newest timestamp) or beyond
     * {@code retention.bytes}, oldest first, and any closed segment wholly below the log start (one
     * DeleteRecords covered while it was still being sealed). The active segment is never dropped.
     */
    @Override
    public void applyRetention(long nowMs) {
        try {
            if (fence.check()) {
                return; // the segments are the new leader's to remove
            }
        } catch (IOException e) {
            LOG.warn("retention skipped {}: its manifest is unreadable; the next pass retries", topicPartition, e);
            return;
        }
        List<Segment> removed;
        synchronized (this) {
            if (closed) {
                return; // retention runs only where the log is open (the leader)
            }
            LogConfig cfg = config;
            if (!cfg.deleteRetention()) {
                return; // compact-only: nothing is deleted by age or size
            }
            long total = 0;
            for (Segment s : segments) {
                total += s.size();
            }
            int drop = 0;
            for (int i = 0; i < segments.size() - 1; i++) {
                Segment s = segments.get(i);
                boolean expired = cfg.retentionMs() >= 0 && nowMs - largestTimestamp(s) > cfg.retentionMs();
                boolean oversized = cfg.retentionBytes() >= 0 && total - s.size() >= cfg.retentionBytes();
                if (!expired && !oversized) {
                    break;
                }
                total -= s.size();
                drop++;
            }
            if (drop > 0) {
                logStartOffset = Math.max(logStartOffset, segments.get(drop).name.baseOffset());
            }
            removed = dropClosedSegmentsBelow(logStartOffset);
            if (removed.isEmpty() && unlinkPending.isEmpty()) {
                return;
            }
            closedViews = closedViews();
            publish();
        }
        ioLock.lock();
        try {
            if (isClosed()) {
                removed.forEach(DiskPartitionLog::closeQuietly); // the next open drops them below the log start
                return;
            }
            unlink();
            LOG.info("retention removed {} segment(s) of {}; log start is now {}", removed.size(), topicPartition,
                    published.offsets().logStartOffset());
        } catch (IOException e) {
            LOG.warn("retention could not unlink segments of {}; the next pass retries", topicPartition, e);
        } finally {
            ioLock.unlock();
        }
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
            return fs.lastModifiedMs(files.log(segment.name));
        } catch (IOException e) {
            return Long.MAX_VALUE; // unknown age: keep it, the next pass asks again
        }
    }

    /**
     * Removes from the segment list the closed segments ending at or below {@code offset}, and queues
     * them for {@link #unlink}. Under the lock.
     */
    private List<Segment> dropClosedSegmentsBelow(long offset) {
        List<Segment> removed = new ArrayList<>();
        while (segments.size() > 1 && segments.get(0).nextOffset() <= offset && !sealing.contains(segments.get(0))) {
            removed.add(segments.remove(0));
        }
        unlinkPending.addAll(removed);
        return removed;
    }

    /**
     * Unlinks the files of every segment taken out of the log and not yet unlinked, oldest first,
     * and makes that durable; what fails stays queued for the next call (a retention pass re-drives
     * it). Handles stay open a while for readers already holding a snapshot (POSIX keeps unlinked
     * files readable), then close. Under the I/O lock.
     */
    private void unlink() throws IOException {
        List<Segment> removed;
        synchronized (this) {
            removed = List.copyOf(unlinkPending);
        }
        if (removed.isEmpty()) {
            return;
        }
        for (Segment s : removed) {
            fs.delete(files.log(s.name));
            fs.delete(files.index(s.name));
            fs.delete(files.timeIndex(s.name));
            fs.delete(files.txnIndex(s.name));
        }
        fs.fsyncDirectory(files.dir());
        synchronized (this) {
            unlinkPending.removeAll(removed);
        }
        // Readers holding an older snapshot may still read the segment: its handle stays open file.delete.delay.ms.
        scheduler.schedule(() -> removed.forEach(DiskPartitionLog::closeQuietly), config.fileDeleteDelayMs());
    }

    // ------------------------------------------------------------------------------------------ close

    /**
     * Clean close (shutdown, relinquish): fsync everything, write the index files, producer snapshot,
     * an end-of-log checkpoint and the manifest, then close the handles.
     */
    void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (failure != null) {
            // Stalled: there is nothing it may persist, and its orphaned fsync may never return; waiting
            // for the I/O lock that fsync holds would hang the broker's shutdown on a dead NFS server.
            // (A close that starts before the fsync hangs still waits for it.)
            segments.forEach(DiskPartitionLog::closeQuietly);
            return;
        }
        ioLock.lock();
        try {
            if (fence.check()) {
                stop(fence.notLeader()); // superseded: every file it would write is the new leader's
            } else if (failure == null) {
                fs.fsyncDirectory(files.dir());
                for (Segment s : segments) {
                    s.force();
                    writeIndexFiles(s, s.index.view());
                }
                Segment active = active();
                long end = active.nextOffset();
                fs.writeAtomically(files.producerSnapshot(),
                        codec.encode(PartitionState.ProducerSnapshot.of(end, producers.windows())));
                fs.writeAtomically(files.checkpoint(),
                        codec.encode(new PartitionState.Checkpoint(active.name.stem(), active.size(), end)));
                writeManifest();
                completeWaiters(Long.MAX_VALUE);
            }
        } catch (IOException | RuntimeException e) {
            // the appends still waiting for an fsync must hear that none is coming
            stall("closing " + topicPartition + " failed: " + e.getMessage());
            throw e;
        } finally {
            ioLock.unlock();
            segments.forEach(DiskPartitionLog::closeQuietly);
        }
    }

    /** Topic deleted: close the handles and write nothing, so no state lands in a recreated topic's directory. */
    void abandon() {
        synchronized (this) {
            closed = true;
        }
        segments.forEach(DiskPartitionLog::closeQuietly);
    }

    private void writeManifest() throws IOException {
        long hwm;
        long start;
        synchronized (this) {
            hwm = active().nextOffset();
            start = logStartOffset;
        }
        fs.writeAtomically(files.manifest(), codec.encode(new PartitionState.Manifest(epoch, hwm, start)));
        synchronized (this) {
            persistedLogStart = Math.max(persistedLogStart, start);
        }
    }

    private static void closeQuietly(Segment segment) {
        try {
            segment.close();
        } catch (IOException ignored) {
            // closing a read/write handle loses nothing: durability came from force()
        }
    }
}
