package io.kaas.bench;

import io.kaas.adapter.wire.codec.KafkaRequest;
import io.kaas.adapter.wire.codec.RequestParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/** Parsing a Produce request frame (header + body, records left as a view): the first hop of every produce. */
public class FrameDecodeBenchmark extends BenchmarkDefaults {
    @Param({"1", "16"})
    int partitions;

    private final RequestParser parser = new RequestParser((key, version) -> true);
    private ByteBuf frame;

    @Setup
    public void setUp() {
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("bench");
        for (int p = 0; p < partitions; p++) {
            topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(p)
                    .setRecords(MemoryRecords.readableRecords(Batches.plain(10, 100))));
        }
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000);
        data.topicData().add(topic);
        ProduceRequest request = ProduceRequest.forMagic((byte) 2, data).build((short) 9);
        ByteBuffer bytes = request.serializeWithHeader(new RequestHeader(ApiKeys.PRODUCE, (short) 9, "bench", 1));
        frame = Unpooled.directBuffer(bytes.remaining()).writeBytes(bytes);
    }

    @TearDown
    public void tearDown() {
        frame.release();
    }

    @Benchmark
    public Object parseProduce() {
        KafkaRequest request = parser.parse(frame.retainedDuplicate());
        request.frame().release();
        return request.body();
    }

}
