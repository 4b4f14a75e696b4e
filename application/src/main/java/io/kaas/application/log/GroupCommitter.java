package io.kaas.application.log;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes a disk partition's appends durable, so appends never wait for the disk themselves: the
 * flush policy ({@code flush.messages}, {@code flush.ms}) and the appends waiting for an fsync; a
 * single-flight committer that does everything slow, run by the I/O task whose appends started it
 * ({@link CommitCycle}) or else as a task on the I/O executor — the group-commit fsync that
 * completes every waiter it covers, directory fsyncs for new files, sealing rolled segments (fsync,
 * index files, producer snapshot) and the recovery checkpoint every {@code checkpointIntervalBytes};
 * and the watchdog: an fsync that fails or outlives {@code fsyncMaxLatencyMs} stalls the partition
 * for good (its {@link #failure()} makes later appends fail fast with KAFKA_STORAGE_ERROR).
 *
 * <p>Its fields but {@link #failure} and {@link #flushedOffset} (volatile, written under the lock)
 * are guarded by the partition lock ({@link DiskPartitionContext#lock}); the methods for appends run
 * under it, held by their caller. File work runs without the partition lock, under the I/O lock
 * ({@link DiskPartitionContext#ioLock}, shared with the {@link SegmentCleaner} and close), so it
 * never interleaves with theirs and never blocks an append.
 */
final class GroupCommitter {
    /** By default, refresh the recovery checkpoint once this many more bytes of the active segment are fsynced. */
    static final long CHECKPOINT_INTERVAL_BYTES = 64L * 1024 * 1024;

    private final DiskPartitionContext partition;
    private final long fsyncMaxLatencyMs;
    private final long checkpointIntervalBytes;
    /** Other brokers may take the partition over: re-read the fence after every fsync, before acknowledging. */
    private final boolean fenceEveryCommit;
    private final DiskSegments segments;
    /** Read under the lock for the producer snapshots the checkpoints carry. */
    private final ProducerStateTable producers;
    private final BrokerMetrics metrics;

    // --- the flush policy and the appends waiting for it, guarded by the partition lock ---
    private long unflushedMessages;
    /** When an append last asked for an fsync, for {@code flush.ms}; -1 until the first append. */
    private long lastFlushRequestMs = -1L;
    private long requestedFlushOffset;
    /** Bytes appended since the committer last sampled its work: what the next fsync makes durable. */
    private long unsyncedBytes;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    // --- work for the next run, guarded by the partition lock ---
    /** Rolled segments not yet fsynced with their index files written; the cleaner leaves them alone. */
    private final List<Segment> sealing = new ArrayList<>();
    private PartitionState.ProducerSnapshot pendingSnapshot;
    private boolean directoryDirty;
    private boolean running;
    /** The segment and position of the last recovery checkpoint. */
    private SegmentName checkpointedSegment;
    private long checkpointedPosition;

    private volatile long flushedOffset;
    private final AtomicLong journaledOffset = new AtomicLong();
    private volatile String failure;

    GroupCommitter(DiskPartitionContext partition, DiskLogEngine.Settings settings, DiskSegments segments,
                   ProducerStateTable producers, long checkpointedPosition) {
        this.partition = partition;
        this.fsyncMaxLatencyMs = settings.fsyncMaxLatencyMs();
        this.checkpointIntervalBytes = settings.checkpointIntervalBytes();
        this.fenceEveryCommit = settings.sharedVolume();
        this.segments = segments;
        this.producers = producers;
        this.metrics = settings.metrics();
        long end = segments.endOffset();
        this.requestedFlushOffset = end;
        this.flushedOffset = end;
        this.checkpointedSegment = segments.active().name;
        this.checkpointedPosition = checkpointedPosition;
    }

    // ------------------------------------------------------------------------------- from appends, under the lock

    /**
     * After an append of {@code records} records: an fsync request when {@code flush.messages} records
     * or {@code flush.ms} have gone by since the last one; otherwise a stage already complete.
     */
    CompletionStage<Void> afterAppend(int records, LogConfig config, long nowMs) {
        return flushDue(records, config, nowMs) ? requestFlush(nowMs) : CompletableFuture.completedFuture(null);
    }

    /**
     * Counts an append of {@code records} records: whether {@code flush.messages} records or {@code flush.ms} have
     * gone by since the last fsync request, which then counts as made (with a journal, the journal's fsync).
     */
    boolean flushDue(int records, LogConfig config, long nowMs) {
        unflushedMessages += records;
        if (lastFlushRequestMs < 0) {
            lastFlushRequestMs = nowMs;
        }
        boolean due = unflushedMessages >= config.flushIntervalMessages()
                || nowMs - lastFlushRequestMs >= config.flushIntervalMs();
        if (due) {
            unflushedMessages = 0;
            lastFlushRequestMs = nowMs;
        }
        return due;
    }

    /**
     * For the {@link LogJournal} retiring a file this partition wrote into: completes once the segments are
     * fsynced through the log end as it is now — at once if a clean close did that already; fails if the
     * partition stalled. Takes the lock.
     */
    CompletionStage<Void> flushSegments(long nowMs) {
        synchronized (partition.lock()) {
            String failed = failure;
            if (failed != null) {
                return CompletableFuture.failedFuture(new IOException(failed));
            }
            if (flushedOffset == Long.MAX_VALUE) {
                return CompletableFuture.completedFuture(null); // closed: everything was fsynced
            }
            if (segments.isClosed()) {
                CompletableFuture<Void> waiter = new CompletableFuture<>(); // the close's last commit completes it
                waiters.addLast(new Waiter(Long.MAX_VALUE, waiter));
                return waiter;
            }
            return requestFlush(nowMs);
        }
    }

    /** With a journal: its fsync now covers every offset below {@code offset}. Lock-free. */
    void journaled(long offset) {
        journaledOffset.accumulateAndGet(offset, Math::max);
    }

    /** The offset below which the journal's fsyncs have made this log durable; lock-free. */
    long journaledOffset() {
        return journaledOffset.get();
    }

    /**
     * Asks for an fsync up to the log end; the stage completes when it is done — at once if one already covers the
     * end (a journal retiring a file whose batches an earlier retirement's fsync reached): the committer would find
     * nothing due and never complete the waiter.
     */
    CompletionStage<Void> requestFlush(long nowMs) {
        unflushedMessages = 0;
        lastFlushRequestMs = nowMs;
        long end = segments.endOffset();
        if (flushedOffset >= end) {
            return CompletableFuture.completedFuture(null);
        }
        requestedFlushOffset = end;
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        waiters.addLast(new Waiter(requestedFlushOffset, waiter));
        startIfIdle();
        return waiter;
    }

    /**
     * A waiter for the fsync already asked for, when it covers {@code endOffset} and is not done yet:
     * an acks=-1 retry answered as a duplicate is acknowledged no sooner than its original.
     */
    CompletionStage<Void> durableThrough(long endOffset) {
        String failed = failure;
        if (failed != null) {
            return CompletableFuture.failedFuture(new IOException(failed));
        }
        if (flushedOffset >= endOffset || requestedFlushOffset < endOffset) {
            return CompletableFuture.completedFuture(null); // durable, or never asked to be (flush.messages above 1)
        }
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        waiters.addLast(new Waiter(requestedFlushOffset, waiter)); // waiters stay in offset order
        startIfIdle();
        return waiter;
    }

    /** A roll replaced {@code rolled}: fsync and index it, and persist {@code snapshot}, the producers at its end. */
    void seal(Segment rolled, PartitionState.ProducerSnapshot snapshot) {
        sealing.add(rolled);
        pendingSnapshot = snapshot;
        directoryDirty = true;
        startIfIdle();
    }

    /** An append wrote {@code bytes} into the active segment. */
    void appended(int bytes) {
        unsyncedBytes += bytes;
    }

    /** The offset below which an fsync has completed; lock-free. */
    long flushedOffset() {
        return flushedOffset;
    }

    /** A file was created in the partition directory: the next run fsyncs the directory. */
    void directoryChanged() {
        directoryDirty = true;
    }

    /** Whether {@code segment} is still being sealed (its index files are not written yet). */
    boolean isSealing(Segment segment) {
        return sealing.contains(segment);
    }

    // ------------------------------------------------------------------------------------------ failure

    /** Why the partition stalled, or null; lock-free. */
    String failure() {
        return failure;
    }

    /** Sticky failure: fail every waiter; appends fail fast from now on. Not under the lock. */
    void stall(String reason) {
        stop(reason, new IOException(reason));
    }

    /** {@link #stall} from under the lock: the waiters it fails must be completed outside it. */
    void stallLater(String reason) {
        partition.io().execute(() -> stall(reason));
    }

    /** Superseded: the appends still waiting for an fsync are not acknowledged, nothing more is written. */
    void stop(KafkaException superseded) {
        stop(superseded.getMessage(), superseded);
    }

    private void stop(String reason, Exception waitersSee) {
        List<Waiter> failed;
        synchronized (partition.lock()) {
            if (failure != null) {
                return;
            }
            failure = reason;
            running = false;
            failed = new ArrayList<>(waiters);
            waiters.clear();
        }
        failed.forEach(w -> w.future.completeExceptionally(waitersSee));
    }

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }

    // ------------------------------------------------------------------------------------------ the committer task

    /** Under the lock. The appending thread's {@link CommitCycle} runs it when it can, else the I/O executor. */
    private void startIfIdle() {
        if (!running) {
            running = true;
            if (!CommitCycle.claim(this)) {
                continueOnPool();
            }
        }
    }

    /** The I/O executor the partition's file work runs on. */
    Executor io() {
        return partition.io();
    }

    /** Runs the committer to idle on the I/O executor. */
    void continueOnPool() {
        partition.io().execute(this::run);
    }

    /**
     * Work sampled under the lock: every byte below {@code target} lies in {@code toForce}. A due
     * checkpoint is sampled at the same instant, so its position, offset and snapshot agree.
     */
    private record Work(long target, long bytes, List<Segment> toForce, List<Segment> sealed, boolean syncDirectory,
                        PartitionState.ProducerSnapshot rollSnapshot, Checkpoint checkpoint) {
    }

    /** A recovery checkpoint to write once the active segment is fsynced past {@code position}. */
    private record Checkpoint(Segment segment, int position, SegmentIndex.View index,
                              PartitionState.ProducerSnapshot snapshot) {
    }

    private void run() {
        while (commitOnce()) {
            // until idle
        }
    }

    /**
     * One commit of what is pending, with its waiters completed; false once there is nothing left
     * (the committer is then idle: the next append starts it again) or it stopped.
     */
    boolean commitOnce() {
        Work work;
        synchronized (partition.lock()) {
            boolean flushDue = requestedFlushOffset > flushedOffset;
            if (failure != null || segments.isClosed()
                    || (!flushDue && sealing.isEmpty() && !directoryDirty && pendingSnapshot == null)) {
                running = false;
                return false;
            }
            List<Segment> toForce = new ArrayList<>(sealing);
            toForce.add(segments.active());
            work = new Work(requestedFlushOffset, unsyncedBytes, toForce, List.copyOf(sealing), directoryDirty,
                    pendingSnapshot, dueCheckpoint());
            directoryDirty = false;
            pendingSnapshot = null;
            unsyncedBytes = 0;
        }
        partition.ioLock().lock();
        Scheduler.Cancellable watchdog = partition.scheduler().schedule(() -> stall("an fsync of "
                + partition.topicPartition() + " took longer than " + fsyncMaxLatencyMs + " ms"), fsyncMaxLatencyMs);
        try {
            commit(work);
        } catch (KafkaException superseded) {
            stop(superseded);
            return false;
        } catch (IOException | RuntimeException e) {
            stall("fsync of " + partition.topicPartition() + " failed: " + e.getMessage());
            return false;
        } finally {
            watchdog.cancel();
            partition.ioLock().unlock();
        }
        if (failure != null) {
            return false; // the watchdog fired while we were blocked: the waiters have been failed already
        }
        synchronized (partition.lock()) {
            sealing.removeAll(work.sealed);
        }
        int acknowledged = completeWaiters(work.target);
        if (acknowledged > 0) {
            metrics.groupCommitAppends().record(acknowledged);
        }
        return true;
    }

    /**
     * Completes every waiter whose batch lies below {@code durableOffset}, now fsynced, and tells how
     * many there were. Not under the lock.
     */
    int completeWaiters(long durableOffset) {
        List<Waiter> done = new ArrayList<>();
        synchronized (partition.lock()) {
            flushedOffset = Math.max(flushedOffset, durableOffset);
            while (!waiters.isEmpty() && waiters.peekFirst().offset <= durableOffset) {
                done.add(waiters.pollFirst());
            }
        }
        done.forEach(w -> w.future.complete(null));
        return done.size();
    }

    private void commit(Work work) throws IOException {
        boolean writesState = !work.sealed.isEmpty() || work.rollSnapshot != null || work.checkpoint != null;
        if (writesState && partition.fence().check()) {
            throw partition.fence().notLeader(); // the index files, snapshot and checkpoint are the new leader's now
        }
        if (work.syncDirectory) {
            partition.fs().fsyncDirectory(partition.files().dir());
        }
        long started = metrics.nanoTime();
        for (Segment s : work.toForce) {
            s.force();
        }
        metrics.fsyncNanos().record(metrics.nanoTime() - started);
        metrics.fsyncBytes().record(work.bytes);
        if (fenceEveryCommit && partition.fence().check()) {
            // Read after the fsync: a newer leader fences before it recovers, so seeing no fence here means
            // its recovery will find these bytes; seeing one, they may be lost and must not be acknowledged.
            throw partition.fence().notLeader();
        }
        for (Segment s : work.sealed) {
            writeIndexFiles(s, s.index.view());
        }
        if (work.rollSnapshot != null && work.checkpoint == null) { // a checkpoint carries a newer snapshot
            partition.writeJson(partition.files().producerSnapshot(), work.rollSnapshot);
        }
        if (work.checkpoint != null) {
            Checkpoint c = work.checkpoint;
            writeIndexFiles(c.segment, c.index);
            partition.writeJson(partition.files().producerSnapshot(), c.snapshot);
            partition.writeJson(partition.files().checkpoint(),
                    new PartitionState.Checkpoint(c.segment.name.stem(), c.position, c.snapshot.offset()));
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
        Segment active = segments.active();
        boolean rolled = !active.name.equals(checkpointedSegment);
        if (!rolled && active.size() - checkpointedPosition < checkpointIntervalBytes) {
            return null;
        }
        checkpointedSegment = active.name;
        checkpointedPosition = active.size();
        return new Checkpoint(active, active.size(), active.index.view(),
                PartitionState.ProducerSnapshot.of(active.nextOffset(), producers.windows()));
    }

    /**
     * A clean close's last commit, once no append can come: fsyncs the directory and every segment,
     * writes every segment's index files, the producer snapshot and an end-of-log checkpoint. Under
     * the I/O lock; the caller then writes the manifest and {@linkplain #completeWaiters completes}
     * every waiter.
     */
    void commitForClose() throws IOException {
        partition.fs().fsyncDirectory(partition.files().dir());
        for (Segment s : segments.all()) {
            s.force();
            writeIndexFiles(s, s.index.view());
        }
        Segment active = segments.active();
        long end = active.nextOffset();
        partition.writeJson(partition.files().producerSnapshot(),
                PartitionState.ProducerSnapshot.of(end, producers.windows()));
        partition.writeJson(partition.files().checkpoint(),
                new PartitionState.Checkpoint(active.name.stem(), active.size(), end));
    }

    private void writeIndexFiles(Segment segment, SegmentIndex.View index) throws IOException {
        writeFile(partition.files().index(segment.name), index.indexBytes());
        writeFile(partition.files().timeIndex(segment.name), index.timeIndexBytes());
    }

    private void writeFile(Path path, ByteBuffer content) throws IOException {
        try (FileHandle handle = partition.fs().open(path, true)) {
            handle.truncate(0);
            handle.write(content, 0);
            handle.force();
        }
    }
}
