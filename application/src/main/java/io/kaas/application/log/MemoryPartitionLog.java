package io.kaas.application.log;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A partition log held in the heap ({@code KAAS_STORAGE=memory}); nothing survives a restart.
 * Batches are packed back to back into 1 MiB arenas, the in-memory counterpart of segments: a read
 * returns one contiguous slice of an arena, never a copy, and retention frees whole arenas.
 * Aborted transactions are indexed in one list for the partition's life.
 */
final class MemoryPartitionLog extends ProducerTrackingLog {
    static final int ARENA_BYTES = 1 << 20;
    private static final CompletionStage<Void> DURABLE = CompletableFuture.completedFuture(null);

    private final TopicPartition topicPartition;
    /** Appends in memory touch no file: their turns run on the caller's thread. */
    private final AppendQueue appendQueue = new AppendQueue(Runnable::run);
    private volatile LogConfig config;
    /** Guarded by {@code this}, as are {@link #arena} and the batch list's writes. */
    private final AppendOnlyList<StoredBatch> batches = new AppendOnlyList<>();
    private final AppendOnlyList<AbortedTxn> aborted = new AppendOnlyList<>();
    private ByteBuffer arena = ByteBuffer.allocate(0);
    /** What readers may see; published last on every change. */
    private volatile Published published = new Published(0, 0, LogOffsets.EMPTY, 0L, 0);

    MemoryPartitionLog(TopicPartition topicPartition, AppendListener listener, LogConfig config) {
        super(new ProducerStateTable(), listener);
        this.topicPartition = topicPartition;
        this.config = config;
    }

    @Override
    public TopicPartition topicPartition() {
        return topicPartition;
    }

    /** Appends in memory touch no file: they run inline, on the caller's thread. */
    @Override
    public AppendQueue appendQueue() {
        return appendQueue;
    }

    @Override
    public int leaderEpoch() {
        return 0;
    }

    @Override
    public void updateConfig(LogConfig newConfig) {
        config = newConfig;
    }

    /** A heap log never refuses an append. */
    @Override
    protected AppendResult refusal() {
        return null;
    }

    @Override
    protected long logStartOffset() {
        return published.offsets.logStartOffset();
    }

    /** Copies the batch into the arena at the log end, offsets rewritten in the copy. Under the lock. */
    @Override
    protected RecordBatchHeader storeAtEnd(ByteBuffer batch, RecordBatchHeader header, long nowMs) {
        int size = batch.remaining();
        if (arena.remaining() < size) {
            arena = ByteBuffer.allocate(Math.max(ARENA_BYTES, size));
        }
        int position = arena.position();
        arena.put(batch.duplicate());
        RecordBatchHeader stored = RecordBatchHeader.at(arena, position);
        stored.setBaseOffset(published.offsets.logEndOffset());
        stored.setPartitionLeaderEpoch(0);
        batches.add(new StoredBatch(stored.baseOffset(), stored.lastOffset(), stored.maxTimestamp(), arena, position, size));
        return stored;
    }

    /** One list for the partition's life; it cannot fail. */
    @Override
    protected AppendResult indexAborted(AbortedTxn entry) {
        aborted.add(entry);
        return null;
    }

    /** Publishes the log after a stored batch; what to tell the listener. Under the lock. */
    @Override
    protected AppendListener.Append publishAppend(RecordBatchHeader stored, int size) {
        Published view = published;
        long end = stored.lastOffset() + 1;
        LogOffsets offsets = new LogOffsets(view.offsets.logStartOffset(), end, end,
                TransactionalState.lastStableOffset(producers, end));
        published = new Published(view.first, batches.size(), offsets, view.bytes + size, aborted.size());
        return new AppendListener.Append(topicPartition, stored.baseOffset(), size, offsets);
    }

    /** Nothing here outlives the process: an append is as durable as it will ever be once stored. */
    @Override
    protected CompletionStage<Void> durable(RecordBatchHeader stored, boolean marker, long nowMs) {
        return DURABLE;
    }

    @Override
    public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        try {
            return readFrom(published, fetchOffset, maxBytes, minOneBatch, readCommitted);
        } catch (Evicted e) {
            return LogRead.failed(KafkaError.OFFSET_OUT_OF_RANGE, published.offsets);
        }
    }

    private LogRead readFrom(Published view, long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        LogOffsets offsets = view.offsets;
        if (fetchOffset < offsets.logStartOffset() || fetchOffset > offsets.highWatermark()) {
            return LogRead.failed(KafkaError.OFFSET_OUT_OF_RANGE, offsets);
        }
        long cap = readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
        int first = indexOfBatchContaining(view, fetchOffset);
        if (first == view.count || at(first).baseOffset >= cap) {
            return LogRead.empty(offsets);
        }
        StoredBatch start = at(first);
        if (start.size > maxBytes && !minOneBatch) {
            return LogRead.empty(offsets);
        }
        int end = start.position + start.size;
        long endOffset = start.lastOffset + 1;
        for (int i = first + 1; i < view.count; i++) {
            StoredBatch next = at(i);
            if (next.arena != start.arena || next.baseOffset >= cap || next.position + next.size - start.position > maxBytes) {
                break;
            }
            end = next.position + next.size;
            endOffset = next.lastOffset + 1;
        }
        ByteBuffer slice = start.arena.asReadOnlyBuffer();
        slice.limit(end).position(start.position);
        RecordsSlice records = new RecordsSlice.Heap(slice.slice());
        if (!readCommitted) {
            return new LogRead(KafkaError.NONE, offsets, records);
        }
        List<AbortedTxn> abortedHere = new ArrayList<>();
        TransactionalState.collect(aborted, view.abortedCount, fetchOffset, endOffset, abortedHere);
        return new LogRead(KafkaError.NONE, offsets, records, abortedHere);
    }

    @Override
    public LogOffsets offsets() {
        return published.offsets;
    }

    @Override
    public long sizeInBytes() {
        return published.bytes;
    }

    /** Never below the log start: the records DeleteRecords cut from a batch are passed over, as the disk log does. */
    @Override
    public synchronized Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records) {
        Published view = published;
        long logStart = view.offsets.logStartOffset();
        for (int i = view.first; i < view.count; i++) {
            StoredBatch b = batches.get(i);
            if (b.maxTimestamp >= timestamp && b.lastOffset >= logStart) {
                Optional<TimestampOffset> found = records.firstAtOrAfter(b.bytes(), timestamp, logStart)
                        .map(TimestampOffset::of);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public synchronized Optional<TimestampOffset> maxTimestamp() {
        StoredBatch max = null;
        Published view = published;
        for (int i = view.first; i < view.count; i++) {
            StoredBatch b = batches.get(i);
            if (max == null || b.maxTimestamp > max.maxTimestamp) {
                max = b;
            }
        }
        return Optional.ofNullable(max).map(b -> new TimestampOffset(b.maxTimestamp, b.lastOffset));
    }

    @Override
    public synchronized KafkaError deleteRecordsBefore(long offset) {
        Published view = published;
        if (offset < 0 || offset > view.offsets.highWatermark()) {
            return KafkaError.OFFSET_OUT_OF_RANGE;
        }
        if (offset > view.offsets.logStartOffset()) {
            int first = view.first;
            long freed = 0;
            while (first < view.count && batches.get(first).lastOffset < offset) {
                freed += batches.get(first).size;
                batches.clear(first++);
            }
            publish(first, offset, freed);
        }
        return KafkaError.NONE;
    }

    @Override
    public synchronized void applyRetention(long nowMs) {
        LogConfig cfg = config;
        if (!cfg.deleteRetention()) {
            return; // compact-only: nothing is deleted by age or size
        }
        Published view = published;
        long total = 0;
        for (int i = view.first; i < view.count; i++) {
            total += batches.get(i).size;
        }
        int first = view.first;
        long freed = 0;
        while (first < view.count && batches.get(first).arena != arena) {
            ByteBuffer oldest = batches.get(first).arena;
            int end = first;
            long bytes = 0;
            long newest = -1;
            while (end < view.count && batches.get(end).arena == oldest) {
                bytes += batches.get(end).size;
                newest = Math.max(newest, batches.get(end).maxTimestamp);
                end++;
            }
            boolean expired = cfg.retentionMs() >= 0 && newest >= 0 && nowMs - newest > cfg.retentionMs();
            boolean oversized = cfg.retentionBytes() >= 0 && total - bytes >= cfg.retentionBytes();
            if (!expired && !oversized) {
                break;
            }
            total -= bytes;
            freed += bytes;
            while (first < end) {
                batches.clear(first++);
            }
        }
        if (first > view.first) {
            publish(first, batches.get(first).baseOffset, freed);
        }
    }

    private void publish(int first, long logStart, long freedBytes) {
        Published view = published;
        published = new Published(first, view.count, new LogOffsets(logStart, view.offsets.highWatermark(),
                view.offsets.logEndOffset(), view.offsets.lastStableOffset()), view.bytes - freedBytes, view.abortedCount);
    }

    /** Index of the first readable batch whose last offset is at or past {@code offset}. */
    private int indexOfBatchContaining(Published view, long offset) {
        int lo = view.first;
        int hi = view.count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at(mid).lastOffset < offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A batch a reader may look at; retention may have freed it since the reader's snapshot. */
    private StoredBatch at(int index) {
        StoredBatch batch = batches.get(index);
        if (batch == null) {
            throw Evicted.INSTANCE;
        }
        return batch;
    }

    /** Thrown to a reader whose snapshot lost a race with retention or DeleteRecords. */
    private static final class Evicted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Evicted INSTANCE = new Evicted();

        private Evicted() {
            super(null, null, false, false);
        }
    }

    private record StoredBatch(long baseOffset, long lastOffset, long maxTimestamp, ByteBuffer arena, int position,
                               int size) {
        ByteBuffer bytes() {
            return arena.duplicate().limit(position + size).position(position).slice();
        }
    }

    /**
     * Readers see batches {@code [first, count)}, holding {@code bytes}, the offsets after them, and
     * the first {@code abortedCount} aborted transactions.
     */
    private record Published(int first, int count, LogOffsets offsets, long bytes, int abortedCount) {
    }
}
