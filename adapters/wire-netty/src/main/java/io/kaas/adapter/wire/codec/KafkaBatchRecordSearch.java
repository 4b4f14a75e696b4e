package io.kaas.adapter.wire.codec;

import io.kaas.application.port.out.BatchRecordSearch;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * Searches a stored batch's records with kafka-clients' own reader, which decompresses every codec
 * (gzip, snappy, lz4, zstd) and stamps the records of a LogAppendTime batch with the batch's
 * timestamp, as Apache's broker sees them. The one record decoder of the broker, reached only from
 * ListOffsets by timestamp; the byte-opacity rules name it as their single exception.
 */
public final class KafkaBatchRecordSearch implements BatchRecordSearch {

    @Override
    public Optional<RecordStamp> firstAtOrAfter(ByteBuffer batch, long timestamp, long minOffset) {
        for (MutableRecordBatch stored : MemoryRecords.readableRecords(batch.duplicate()).batches()) {
            // streaming: decompress only as far as the record found
            try (CloseableIterator<Record> records = stored.streamingIterator(BufferSupplier.NO_CACHING)) {
                while (records.hasNext()) {
                    Record record = records.next();
                    if (record.timestamp() >= timestamp && record.offset() >= minOffset) {
                        return Optional.of(new RecordStamp(record.offset(), record.timestamp()));
                    }
                }
            }
        }
        return Optional.empty();
    }
}
