package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.BeforeEach;

/** Produce at every served version, through the real registry and the in-memory log. */
class ProduceHandlerTest extends HandlerTestBase {
    private static final short ACKS_ALL = -1;
    private static final short ACKS_LEADER = 1;
    private static final short ACKS_NONE = 0;

    @BeforeEach
    void createTopics() {
        broker.createTopic("orders", 2);
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void appendsAndAnswersWithBaseOffsets(short version) {
        ProduceResponse first = wire.roundTrip(TestRecords.produce(version, ACKS_LEADER, "orders", 0,
                TestRecords.batch(1_000L, "a", "b")));
        ProduceResponse second = wire.roundTrip(TestRecords.produce(version, ACKS_ALL, "orders", 0,
                TestRecords.batch(2_000L, "c", "d", "e")));
        ProduceResponse other = wire.roundTrip(TestRecords.produce(version, ACKS_ALL, "orders", 1,
                TestRecords.batch(3_000L, "f")));

        assertSucceeded(partition(first, "orders", 0), 0L, version);
        assertSucceeded(partition(second, "orders", 0), 2L, version);
        assertSucceeded(partition(other, "orders", 1), 0L, version);
        assertThat(highWatermark("orders", 0)).isEqualTo(5L);
        assertThat(highWatermark("orders", 1)).isEqualTo(1L);
        assertThat(first.data().throttleTimeMs()).isZero();
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void eachPartitionOfARequestIsAnsweredInRequestOrder(short version) {
        ProduceRequest request = TestRecords.produce(version, ACKS_LEADER, "orders",
                List.of(TestRecords.batch(1_000L, "p0"), TestRecords.batch(1_000L, "p1", "p1"),
                        TestRecords.batch(1_000L, "p2-does-not-exist")));

        ProduceResponse response = wire.roundTrip(request);

        assertThat(response.data().responses()).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("orders");
            assertThat(topic.partitionResponses()).extracting(ProduceResponseData.PartitionProduceResponse::index,
                            ProduceResponseData.PartitionProduceResponse::errorCode,
                            ProduceResponseData.PartitionProduceResponse::baseOffset)
                    .containsExactly(
                            tuple(0, Errors.NONE.code(), 0L),
                            tuple(1, Errors.NONE.code(), 0L),
                            tuple(2, Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), -1L));
        });
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void anUnknownTopicIsRefusedPerPartition(short version) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, ACKS_LEADER, "missing", 0,
                TestRecords.batch(1_000L, "x")));

        ProduceResponseData.PartitionProduceResponse p = partition(response, "missing", 0);
        assertThat(p.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(p.baseOffset()).isEqualTo(-1L);
        assertThat(p.errorMessage()).isEqualTo(version >= 8 ? "This server does not host this topic-partition." : null);
        assertThat(broker.topics().byName("missing")).as("produce never creates topics").isEmpty();
    }

    @ServedVersionsTest(value = ApiKeys.PRODUCE, below = 7)
    void zstdBeforeV7IsAnUnsupportedCompressionType(short version) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, ACKS_LEADER, "orders", 0,
                TestRecords.batch(CompressionType.ZSTD, 1_000L, "squeezed")));

        ProduceResponseData.PartitionProduceResponse p = partition(response, "orders", 0);
        assertThat(p.errorCode()).isEqualTo(Errors.UNSUPPORTED_COMPRESSION_TYPE.code());
        assertThat(p.baseOffset()).isEqualTo(-1L);
        assertThat(highWatermark("orders", 0)).as("nothing appended").isZero();
    }

    @ServedVersionsTest(value = ApiKeys.PRODUCE, from = 7)
    void zstdFromV7IsAppended(short version) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, ACKS_LEADER, "orders", 0,
                TestRecords.batch(CompressionType.ZSTD, 1_000L, "squeezed", "tight")));

        assertSucceeded(partition(response, "orders", 0), 0L, version);
        assertThat(highWatermark("orders", 0)).isEqualTo(2L);
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void aCorruptBatchIsRefused(short version) {
        MemoryRecords records = TestRecords.batch(1_000L, "intact");
        ByteBuffer bytes = ByteBuffer.wrap(TestRecords.bytes(records));
        int last = bytes.limit() - 1;
        bytes.put(last, (byte) ~bytes.get(last)); // flips a record byte the CRC covers

        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, ACKS_LEADER, "orders", 0,
                MemoryRecords.readableRecords(bytes)));

        assertThat(partition(response, "orders", 0).errorCode()).isEqualTo(Errors.CORRUPT_MESSAGE.code());
        assertThat(highWatermark("orders", 0)).isZero();
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void invalidAcksAreRefused(short version) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, (short) 2, "orders", 0,
                TestRecords.batch(1_000L, "x")));

        assertThat(partition(response, "orders", 0).errorCode()).isEqualTo(Errors.INVALID_REQUIRED_ACKS.code());
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void acksZeroAppendsWithoutAnAnswer(short version) {
        wire.send(TestRecords.produce(version, ACKS_NONE, "orders", 0, TestRecords.batch(1_000L, "fire", "forget")));

        assertThat(wire.outboundCount()).isZero();
        assertThat(wire.isOpen()).isTrue();
        assertThat(highWatermark("orders", 0)).isEqualTo(2L);
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void acksZeroToAnUnknownTopicClosesTheConnection(short version) {
        wire.send(TestRecords.produce(version, ACKS_NONE, "missing", 0, TestRecords.batch(1_000L, "lost")));

        assertThat(wire.outboundCount()).isZero();
        assertThat(wire.isOpen()).as("Apache closes the connection: no response can carry the error").isFalse();
    }

    private static void assertSucceeded(ProduceResponseData.PartitionProduceResponse p, long baseOffset, short version) {
        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.baseOffset()).isEqualTo(baseOffset);
        assertThat(p.logAppendTimeMs()).as("create-time topic").isEqualTo(-1L);
        assertThat(p.logStartOffset()).isEqualTo(version >= 5 ? 0L : -1L);
        assertThat(p.errorMessage()).isNull();
        assertThat(p.recordErrors()).isEmpty();
    }

    private static ProduceResponseData.PartitionProduceResponse partition(ProduceResponse response, String topic,
                                                                          int index) {
        ProduceResponseData.TopicProduceResponse t = response.data().responses().find(topic);
        assertThat(t).as("response for topic %s", topic).isNotNull();
        return t.partitionResponses().stream().filter(p -> p.index() == index).findFirst().orElseThrow();
    }

    private long highWatermark(String topic, int partition) {
        return broker.topics().log(new TopicPartition(topic, partition)).orElseThrow().offsets().highWatermark();
    }
}
