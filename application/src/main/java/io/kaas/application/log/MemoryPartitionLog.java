package io.kaas.application.log;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.SequenceCheck;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A partition log held in the heap ({@code KAAS_STORAGE=memory}); nothing survives a restart.
 * Batches are packed back to back into 1 MiB arenas, the in-memory counterpart of segments, so a
 * read returns one contiguous slice, never a copy.
 */
final class MemoryPartitionLog implements PartitionLog {
    static final int ARENA_BYTES = 1 << 20;
    private static final CompletionStage<Void> DURABLE = CompletableFuture.completedFuture(null);

    private final TopicPartition topicPartition;
    private final AppendListener listener;
    /** Guarded by {@code this}, as are {@link #arena} and the batch list's writes. */
    private final ProducerStateTable producers = new ProducerStateTable();
    private final AppendOnlyList<StoredBatch> batches = new AppendOnlyList<>();
    private ByteBuffer arena = ByteBuffer.allocate(0);
    /** What readers may see; published last on every append. */
    private volatile Published published = new Published(0, LogOffsets.EMPTY);

    MemoryPartitionLog(TopicPartition topicPartition, AppendListener listener) {
        this.topicPartition = topicPartition;
        this.listener = listener;
    }

    @Override
    public TopicPartition topicPartition() {
        return topicPartition;
    }

    @Override
    public AppendResult append(ByteBuffer batch, long nowMs) {
        AppendResult result;
        synchronized (this) {
            LogOffsets offsets = published.offsets;
            SequenceCheck check = producers.classify(RecordBatchHeader.at(batch));
            if (check instanceof SequenceCheck.Duplicate duplicate) {
                return new AppendResult.Duplicate(duplicate.original().firstOffset(), offsets.logStartOffset());
            }
            if (check instanceof SequenceCheck.Reject reject) {
                return new AppendResult.Rejected(reject.error(), reject.message());
            }
            int size = batch.remaining();
            if (arena.remaining() < size) {
                arena = ByteBuffer.allocate(Math.max(ARENA_BYTES, size));
            }
            int position = arena.position();
            arena.put(batch.duplicate());
            RecordBatchHeader stored = RecordBatchHeader.at(arena, position);
            long baseOffset = offsets.logEndOffset();
            stored.setBaseOffset(baseOffset);
            stored.setPartitionLeaderEpoch(0);
            batches.add(new StoredBatch(baseOffset, stored.lastOffset(), stored.maxTimestamp(), arena, position, size));
            producers.record(stored, baseOffset, nowMs);
            long end = stored.lastOffset() + 1;
            published = new Published(batches.size(), new LogOffsets(offsets.logStartOffset(), end, end));
            result = new AppendResult.Appended(baseOffset, -1L, offsets.logStartOffset(), DURABLE);
        }
        listener.onAppend(topicPartition);
        return result;
    }

    @Override
    public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch) {
        Published view = published;
        LogOffsets offsets = view.offsets;
        if (fetchOffset < offsets.logStartOffset() || fetchOffset > offsets.highWatermark()) {
            return LogRead.failed(KafkaError.OFFSET_OUT_OF_RANGE, offsets);
        }
        int first = indexOfBatchContaining(view.count, fetchOffset);
        if (first == view.count) {
            return LogRead.empty(offsets);
        }
        StoredBatch start = batches.get(first);
        if (start.size > maxBytes && !minOneBatch) {
            return LogRead.empty(offsets);
        }
        int end = start.position + start.size;
        for (int i = first + 1; i < view.count; i++) {
            StoredBatch next = batches.get(i);
            if (next.arena != start.arena || next.position + next.size - start.position > maxBytes) {
                break;
            }
            end = next.position + next.size;
        }
        ByteBuffer slice = start.arena.asReadOnlyBuffer();
        slice.limit(end).position(start.position);
        return new LogRead(KafkaError.NONE, offsets, slice.slice());
    }

    @Override
    public LogOffsets offsets() {
        return published.offsets;
    }

    @Override
    public Optional<TimestampOffset> offsetForTimestamp(long timestamp) {
        int count = published.count;
        for (int i = 0; i < count; i++) {
            StoredBatch b = batches.get(i);
            if (b.maxTimestamp >= timestamp) {
                return Optional.of(new TimestampOffset(b.maxTimestamp, b.baseOffset));
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<TimestampOffset> maxTimestamp() {
        StoredBatch max = null;
        int count = published.count;
        for (int i = 0; i < count; i++) {
            StoredBatch b = batches.get(i);
            if (max == null || b.maxTimestamp >= max.maxTimestamp) {
                max = b;
            }
        }
        return Optional.ofNullable(max).map(b -> new TimestampOffset(b.maxTimestamp, b.lastOffset));
    }

    /** Index of the first of the first {@code count} batches whose last offset is at or past {@code offset}. */
    private int indexOfBatchContaining(int count, long offset) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (batches.get(mid).lastOffset < offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private record StoredBatch(long baseOffset, long lastOffset, long maxTimestamp, ByteBuffer arena, int position,
                               int size) {
    }

    /** The first {@code count} batches and the offsets after them. */
    private record Published(int count, LogOffsets offsets) {
    }
}
