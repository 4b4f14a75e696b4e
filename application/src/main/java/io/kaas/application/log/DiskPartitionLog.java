package io.kaas.application.log;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.Pacer;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.compaction.CleanableRange;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A partition log in epoch-named segment files on the {@link Filesystem} port: the appends'
 * disk-specific steps, reads from the published snapshot, and close. The work is split by job:
 * <ul>
 *   <li>{@link DiskSegments} holds the segments, the log start and the published {@link LogView}:
 *       an append only writes into the page cache at the log end (rolling first when the active
 *       segment is full) and publishes; it never fsyncs;</li>
 *   <li>{@link GroupCommitter} holds the flush policy and the appends waiting for an fsync, and does
 *       the slow file work single-flight on the I/O executor: group-commit fsyncs, directory fsyncs,
 *       sealing rolled segments, recovery checkpoints; an fsync that fails or outlives the watchdog
 *       stalls the partition for good (appends fail fast with KAFKA_STORAGE_ERROR);</li>
 *   <li>{@link SegmentCleaner} holds the segments awaiting unlink and the manifest's log start:
 *       retention, DeleteRecords, unlinking in order;</li>
 *   <li>{@link SegmentCompactor} compacts the closed segments of a compacted topic, on the log
 *       cleaner's thread, and swaps the cleaned ones in.</li>
 * </ul>
 *
 * <p>Locks: one partition lock, this object's monitor, guards the state of all three (each says
 * which fields) and the producer state table; appends hold it (see {@link ProducerTrackingLog}).
 * File work that may be slow never runs under it: the committer, the cleaner and close write files
 * under the I/O lock, which keeps their writes from interleaving ({@link DiskPartitionContext} defines
 * both). Transaction
 * markers always ask for an fsync, and an ABORT of a transaction with records here also lands in the
 * segment's {@code .txnindex}. A deposed leader's steps are refused by the {@link TakeoverFence}.
 */
final class DiskPartitionLog extends ProducerTrackingLog {
    private final DiskPartitionContext partition;
    private final AppendQueue appendQueue;
    private final DiskSegments segments;
    private final GroupCommitter committer;
    private final SegmentCleaner cleaner;
    private final SegmentCompactor compactor;
    /** The broker's write-ahead journal, or null: then each append's fsync is its own segment's. */
    private final LogJournal journal;
    /** Where the journal entry of the last append ends; guarded by the partition lock. */
    private long journalEnd;
    private volatile LogConfig config;

    DiskPartitionLog(TopicPartition topicPartition, PartitionFiles files, Filesystem fs, JsonCodec codec, Executor io,
                     Scheduler scheduler, AppendListener listener, DiskLogEngine.Settings settings, LogConfig config,
                     PartitionRecovery.Recovered recovered, LogJournal journal) {
        super(recovered.producers(), listener);
        this.journal = journal;
        this.partition = new DiskPartitionContext(topicPartition, files, fs, codec, io, scheduler, this,
                new ReentrantLock(), new TakeoverFence(fs, codec, files, topicPartition, recovered.epoch()));
        this.appendQueue = new AppendQueue(io);
        this.config = config;
        this.segments = new DiskSegments(partition, producers, recovered);
        this.committer = new GroupCommitter(partition, settings, segments, producers, recovered.checkpointedPosition());
        this.cleaner = new SegmentCleaner(partition, segments, committer);
        this.compactor = new SegmentCompactor(partition, segments, committer, producers, recovered.cleanerCheckpoint());
    }

    @Override
    public TopicPartition topicPartition() {
        return partition.topicPartition();
    }

    @Override
    public AppendQueue appendQueue() {
        return appendQueue;
    }

    @Override
    public int leaderEpoch() {
        return segments.epoch();
    }

    LogConfig config() {
        return config;
    }

    @Override
    public void updateConfig(LogConfig newConfig) {
        config = newConfig;
    }

    // ------------------------------------------------------------------------- the append's disk steps, under the lock

    @Override
    protected AppendResult refusal() {
        TakeoverFence fence = partition.fence();
        if (fence.tripped()) {
            return new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, fence.notLeader().getMessage());
        }
        if (segments.isClosed()) {
            return new AppendResult.Rejected(KafkaError.NOT_LEADER_OR_FOLLOWER, "The log of "
                    + partition.topicPartition() + " is closed");
        }
        String failed = failure();
        return failed == null ? null : new AppendResult.Rejected(KafkaError.KAFKA_STORAGE_ERROR, failed);
    }

    /** Why appends fail fast: this partition stalled, or the journal it writes through broke; null if neither. */
    private String failure() {
        String failed = committer.failure();
        return failed != null || journal == null ? failed : journal.failure();
    }

    @Override
    public boolean stalled() {
        return failure() != null;
    }

    @Override
    public synchronized CompletionStage<Void> durableThrough(long endOffset) {
        if (journal == null) {
            return committer.durableThrough(endOffset);
        }
        return syncedOffset() >= endOffset ? CompletableFuture.completedFuture(null)
                : journaled(journal.end(), endOffset);
    }

    @Override
    public long syncedOffset() {
        return Math.max(committer.flushedOffset(), committer.journaledOffset());
    }

    @Override
    protected long logStartOffset() {
        return segments.logStartOffset();
    }

    /**
     * Rolls if the active segment is full, then writes at the log end. A roll first asks the
     * {@link TakeoverFence}; a deposed leader gets the fence's NOT_LEADER_OR_FOLLOWER thrown. The
     * rolled segment goes to the committer to be sealed.
     */
    @Override
    protected RecordBatchHeader storeAtEnd(ByteBuffer batch, RecordBatchHeader header, long nowMs) throws IOException {
        LogConfig cfg = config;
        TakeoverFence fence = partition.fence();
        try {
            if (segments.active().isFull(header, batch.remaining(), cfg.segmentBytes(), cfg.segmentMs(), nowMs)) {
                if (fence.check()) {
                    partition.io().execute(() -> committer.stop(fence.notLeader()));
                    throw fence.notLeader();
                }
                Segment rolled = segments.roll(cfg, nowMs);
                committer.seal(rolled, PartitionState.ProducerSnapshot.of(rolled.nextOffset(), producers.windows()));
            }
        } catch (IOException e) {
            throw new IOException("cannot roll " + partition.topicPartition() + ": " + e.getMessage(), e);
        }
        int bytes = batch.remaining();
        if (journal == null) {
            segments.write(batch, header);
        } else {
            writeJournaled(batch, header);
        }
        committer.appended(bytes);
        return header;
    }

    /** Journal first (nothing is in the segment if that fails), then the segment; its entry voided if that fails. */
    private void writeJournaled(ByteBuffer batch, RecordBatchHeader header) throws IOException {
        SegmentName segment = segments.active().name;
        int position = segments.stamp(header);
        LogJournal.Appended appended = journal.append(committer, partition.files().dir(), segment, position, batch);
        try {
            segments.write(batch, header);
        } catch (IOException e) {
            journal.voidEntry(appended);
            throw e;
        }
        journalEnd = appended.end();
    }

    /** Into the active segment's {@code .txnindex}, creating the file on its first entry. */
    @Override
    protected AppendResult indexAborted(AbortedTxn entry) {
        try {
            if (segments.openTxnIndex()) {
                committer.directoryChanged();
            }
            segments.active().addAborted(entry);
            return null;
        } catch (IOException e) {
            // The marker is in the log but its index entry is not: stop here rather than serve
            // read_committed fetches that miss an aborted transaction; recovery rebuilds the entry.
            String reason = "cannot write the transaction index of " + partition.topicPartition() + ": "
                    + e.getMessage();
            segments.publish();
            committer.stallLater(reason);
            return storageError(reason);
        }
    }

    @Override
    protected AppendListener.Append publishAppend(RecordBatchHeader stored, int size) {
        segments.publish();
        return new AppendListener.Append(partition.topicPartition(), stored.baseOffset(), size,
                segments.published().offsets());
    }

    /**
     * A marker always waits for an fsync; records as the topic's flush settings say. With a journal, the fsync is
     * the journal's, shared by every partition's appends of the moment.
     */
    @Override
    protected CompletionStage<Void> durable(RecordBatchHeader stored, boolean marker, long nowMs) {
        if (journal == null) {
            return marker ? committer.requestFlush(nowMs) : committer.afterAppend(stored.recordsCount(), config, nowMs);
        }
        boolean due = committer.flushDue(stored.recordsCount(), config, nowMs) || marker;
        return due ? journaled(journalEnd, stored.lastOffset() + 1) : CompletableFuture.completedFuture(null);
    }

    /** Completes once the journal is fsynced through {@code end}, this log then durable below {@code offset}. */
    private CompletionStage<Void> journaled(long end, long offset) {
        return journal.durableThrough(end).thenRun(() -> committer.journaled(offset));
    }

    // ------------------------------------------------------------------------------------------ read

    @Override
    public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        return segments.published().read(fetchOffset, maxBytes, minOneBatch, readCommitted);
    }

    @Override
    public LogOffsets offsets() {
        return segments.published().offsets();
    }

    @Override
    public long sizeInBytes() {
        return segments.published().sizeInBytes();
    }

    @Override
    public int segmentCount() {
        return segments.published().count();
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records) {
        return segments.published().offsetForTimestamp(timestamp, records);
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        return segments.published().maxTimestamp();
    }

    // ------------------------------------------------------------------------------------------ retention

    @Override
    public KafkaError deleteRecordsBefore(long offset) {
        return cleaner.deleteRecordsBefore(offset, config);
    }

    @Override
    public void applyRetention(long nowMs) {
        cleaner.applyRetention(config, nowMs);
    }

    // ------------------------------------------------------------------------------------------ compaction

    /** The dirty part of the log, for a log whose topic is compacted; empty otherwise. */
    Optional<CleanableRange> cleanableRange(long nowMs) {
        LogConfig cfg = config;
        return cfg.compact() ? compactor.cleanableRange(cfg, nowMs) : Optional.empty();
    }

    /** Compacts the log if it is compacted and a cleaning is due; the bytes cleaned. On the cleaner's thread. */
    long clean(CompactionRecords records, Pacer pacer, int mapCapacity, long nowMs)
            throws IOException, InterruptedException {
        LogConfig cfg = config;
        return cfg.compact() ? compactor.clean(cfg, records, pacer, mapCapacity, nowMs) : 0L;
    }

    // ------------------------------------------------------------------------------------------ close

    /**
     * Clean close (shutdown, relinquish): fsync everything, write the index files, producer snapshot,
     * an end-of-log checkpoint and the manifest, then close the handles.
     */
    void close() throws IOException {
        if (!markClosed()) {
            return;
        }
        try {
            persistForClose();
        } finally {
            segments.closeHandles();
        }
    }

    /**
     * The switch of a move between log dirs: closes the log as {@link #close} does, but leaves its handles open for
     * the reads in flight ({@link #closeHandlesLater}); the segments it closed with. A log that cannot persist its
     * state (stalled, or superseded) cannot be moved: an IOException says why.
     */
    List<Segment> closeForMove() throws IOException {
        if (!markClosed()) {
            throw new IOException("the log of " + partition.topicPartition() + " is closed already");
        }
        persistForClose();
        String failed = committer.failure();
        if (failed != null) {
            throw new IOException(failed);
        }
        return segments.all();
    }

    /** Closes the handles a {@link #closeForMove} left open, once the reads that may use them are done. */
    void closeHandlesLater(Runnable then) {
        partition.scheduler().schedule(() -> {
            segments.closeHandles();
            then.run();
        }, config.fileDeleteDelayMs());
    }

    /**
     * The sealed segments, oldest first: every one but the active segment and those the committer has not sealed
     * yet. Their files no longer change (a cleaning or retention replaces or removes them whole).
     */
    synchronized List<Segment> sealedSegments() {
        List<Segment> all = segments.all();
        return all.subList(0, all.size() - 1).stream().filter(s -> !committer.isSealing(s)).toList();
    }

    PartitionFiles files() {
        return partition.files();
    }

    /** Marks the log closed, so appends are refused from now on; false when it was closed already. */
    private synchronized boolean markClosed() {
        return segments.markClosed();
    }

    /** Persists what the next open uses, unless the log stalled or was superseded. */
    private void persistForClose() throws IOException {
        if (committer.failure() != null) {
            // Stalled: there is nothing it may persist, and its orphaned fsync may never return; waiting
            // for the I/O lock that fsync holds would hang the broker's shutdown on a dead NFS server.
            // (A close that starts before the fsync hangs still waits for it.)
            return;
        }
        TakeoverFence fence = partition.fence();
        partition.ioLock().lock();
        try {
            if (fence.check()) {
                committer.stop(fence.notLeader()); // superseded: every file it would write is the new leader's
            } else if (committer.failure() == null) {
                committer.commitForClose();
                cleaner.writeManifest();
                committer.completeWaiters(Long.MAX_VALUE);
            }
        } catch (IOException | RuntimeException e) {
            // the appends still waiting for an fsync must hear that none is coming
            committer.stall("closing " + partition.topicPartition() + " failed: " + e.getMessage());
            throw e;
        } finally {
            partition.ioLock().unlock();
        }
    }

    /** Topic deleted: close the handles and write nothing, so no state lands in a recreated topic's directory. */
    void abandon() {
        synchronized (this) {
            segments.markClosed();
        }
        segments.closeHandles();
    }
}
