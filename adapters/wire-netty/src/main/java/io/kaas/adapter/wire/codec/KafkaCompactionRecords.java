package io.kaas.adapter.wire.codec;

import io.kaas.application.port.out.CompactionRecords;
import io.kaas.domain.compaction.CompactionFilter;
import io.kaas.domain.compaction.OffsetMapBuilder;
import io.kaas.domain.compaction.StoredBatch;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import org.apache.kafka.common.record.ControlRecordType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * The log cleaner's record reader and batch rewriter, on kafka-clients' own: its streaming record
 * iterator (every codec) for the keys, and {@code MemoryRecords.filterTo}, the rewrite Apache's
 * cleaner uses, which keeps each batch's codec, producer id, epoch, base sequence and offsets and
 * stamps delete horizons. The decisions are the domain's {@link CompactionFilter}.
 */
public final class KafkaCompactionRecords implements CompactionRecords {

    @Override
    public void readKeys(ByteBuffer batches, OffsetMapBuilder keys) {
        for (MutableRecordBatch batch : MemoryRecords.readableRecords(batches.duplicate()).batches()) {
            StoredBatch stored = stored(batch);
            if (keys.startBatch(stored)) {
                try (CloseableIterator<Record> records = batch.streamingIterator(BufferSupplier.NO_CACHING)) {
                    while (records.hasNext()) {
                        Record record = records.next();
                        keys.record(record.offset(), record.hasKey() ? record.key() : null);
                    }
                }
            }
            if (!keys.endBatch(stored)) {
                return;
            }
        }
    }

    @Override
    public ByteBuffer filter(TopicPartition partition, ByteBuffer batches, CompactionFilter filter, long nowMs,
                             long deleteRetentionMs) {
        MemoryRecords records = MemoryRecords.readableRecords(batches.duplicate());
        MemoryRecords.FilterResult result = records.filterTo(
                new org.apache.kafka.common.TopicPartition(partition.topic(), partition.partition()),
                new DomainFilter(filter, nowMs, deleteRetentionMs), ByteBuffer.allocate(batches.remaining()),
                Integer.MAX_VALUE, BufferSupplier.NO_CACHING);
        return result.outputBuffer().flip();
    }

    /** kafka-clients' filter callbacks, answered by the domain filter. */
    private static final class DomainFilter extends MemoryRecords.RecordFilter {
        private final CompactionFilter filter;
        private StoredBatch current;

        DomainFilter(CompactionFilter filter, long nowMs, long deleteRetentionMs) {
            super(nowMs, deleteRetentionMs);
            this.filter = filter;
        }

        @Override
        protected BatchRetentionResult checkBatchRetention(RecordBatch batch) {
            current = stored(batch);
            CompactionFilter.BatchDecision decision = filter.batch(current);
            return new BatchRetentionResult(switch (decision.retention()) {
                case DELETE -> BatchRetention.DELETE;
                case DELETE_EMPTY -> BatchRetention.DELETE_EMPTY;
                case RETAIN_EMPTY -> BatchRetention.RETAIN_EMPTY;
            }, decision.containsMarkerForEmptyTxn());
        }

        @Override
        protected boolean shouldRetainRecord(RecordBatch batch, Record record) {
            return filter.retainRecord(current, record.offset(), record.hasKey() ? record.key() : null,
                    record.hasValue());
        }
    }

    private static StoredBatch stored(RecordBatch batch) {
        return new StoredBatch(batch.baseOffset(), batch.lastOffset(), batch.producerId(), batch.producerEpoch(),
                batch.isTransactional(), marker(batch), batch.deleteHorizonMs());
    }

    /** The marker a control batch holds: its one record's key says which. */
    private static StoredBatch.Marker marker(RecordBatch batch) {
        if (!batch.isControlBatch()) {
            return StoredBatch.Marker.NONE;
        }
        try (CloseableIterator<Record> records = batch.streamingIterator(BufferSupplier.NO_CACHING)) {
            if (!records.hasNext()) {
                return StoredBatch.Marker.EMPTY;
            }
            return switch (ControlRecordType.parse(records.next().key())) {
                case ABORT -> StoredBatch.Marker.ABORT;
                case COMMIT -> StoredBatch.Marker.COMMIT;
                default -> StoredBatch.Marker.OTHER;
            };
        }
    }
}
