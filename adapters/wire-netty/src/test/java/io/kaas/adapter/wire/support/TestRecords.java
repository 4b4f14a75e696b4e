package io.kaas.adapter.wire.support;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;

/** Record batches and produce requests as a kafka-clients producer builds them. */
public final class TestRecords {
    private TestRecords() {
    }

    /** One magic-v2 batch at base offset 0, every record stamped {@code timestamp}. */
    public static MemoryRecords batch(CompressionType compression, long timestamp, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(timestamp, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    values[i].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V2, 0L, compression, records);
    }

    public static MemoryRecords batch(long timestamp, String... values) {
        return batch(CompressionType.NONE, timestamp, values);
    }

    /** A copy of the batch's bytes. */
    public static byte[] bytes(MemoryRecords records) {
        ByteBuffer buffer = records.buffer();
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    /**
     * A produce request for one partition at {@code version}, built without kafka-clients' client-side
     * validation, so it can carry what a misbehaving client would (zstd below v7).
     */
    public static ProduceRequest produce(short version, short acks, String topic, int partition, MemoryRecords records) {
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000);
        ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                .setRecords(records));
        data.topicData().add(topicData);
        return new ProduceRequest(data, version);
    }

    /** Several partitions of one topic in one request, each with its own batch. */
    public static ProduceRequest produce(short version, short acks, String topic, List<MemoryRecords> perPartition) {
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000);
        ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        for (int p = 0; p < perPartition.size(); p++) {
            topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(p)
                    .setRecords(perPartition.get(p)));
        }
        data.topicData().add(topicData);
        return new ProduceRequest(data, version);
    }
}
