package io.kaas.adapter.wire.codec;

import io.kaas.application.port.out.RecordKeys;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * The keyless-record check of a compacted topic's produce, on kafka-clients' streaming record
 * iterator (every codec), as Apache's {@code LogValidator} walks the records it validates.
 */
public final class KafkaRecordKeys implements RecordKeys {

    @Override
    public List<Integer> recordsWithoutKey(ByteBuffer batch) {
        List<Integer> keyless = new ArrayList<>();
        for (MutableRecordBatch stored : MemoryRecords.readableRecords(batch.duplicate()).batches()) {
            try (CloseableIterator<Record> records = stored.streamingIterator(BufferSupplier.NO_CACHING)) {
                for (int index = 0; records.hasNext(); index++) {
                    if (!records.next().hasKey()) {
                        keyless.add(index);
                    }
                }
            }
        }
        return keyless;
    }
}
