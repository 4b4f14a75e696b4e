package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.requests.DeleteRecordsResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.BeforeEach;

/** DeleteRecords at every served version: low watermarks move, bad offsets and topics are refused. */
class DeleteRecordsHandlerTest extends HandlerTestBase {
    private static final short PRODUCE_VERSION = 9;

    @BeforeEach
    void produceFiveRecords() {
        broker.createTopic("t", 1);
        for (int i = 0; i < 5; i++) {
            ProduceResponse produced = wire.roundTrip(TestRecords.produce(PRODUCE_VERSION, (short) -1, "t", 0,
                    TestRecords.batch(System.currentTimeMillis(), "r" + i)));
            assertThat(produced.errorCounts()).containsOnlyKeys(Errors.NONE);
        }
    }

    @ServedVersionsTest(ApiKeys.DELETE_RECORDS)
    void advancesTheLowWatermark(short version) {
        DeleteRecordsResponseData.DeleteRecordsPartitionResult result = deleteBefore(version, "t", 3);

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.lowWatermark()).isEqualTo(3);
        assertThat(broker.topics().log(new TopicPartition("t", 0)).orElseThrow()
                .offsets().logStartOffset()).isEqualTo(3);
    }

    @ServedVersionsTest(ApiKeys.DELETE_RECORDS)
    void minusOneMeansTheHighWatermark(short version) {
        DeleteRecordsResponseData.DeleteRecordsPartitionResult result = deleteBefore(version, "t", -1);

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.lowWatermark()).isEqualTo(5);
    }

    @ServedVersionsTest(ApiKeys.DELETE_RECORDS)
    void anOffsetPastTheHighWatermarkIsOutOfRange(short version) {
        DeleteRecordsResponseData.DeleteRecordsPartitionResult result = deleteBefore(version, "t", 6);

        assertThat(result.errorCode()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        assertThat(result.lowWatermark()).isEqualTo(-1);
    }

    @ServedVersionsTest(ApiKeys.DELETE_RECORDS)
    void anUnknownTopicIsReported(short version) {
        DeleteRecordsResponseData.DeleteRecordsPartitionResult result = deleteBefore(version, "missing", 1);

        assertThat(result.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    private DeleteRecordsResponseData.DeleteRecordsPartitionResult deleteBefore(short version, String topic, long offset) {
        DeleteRecordsRequestData data = new DeleteRecordsRequestData().setTimeoutMs(5_000);
        data.topics().add(new DeleteRecordsRequestData.DeleteRecordsTopic().setName(topic).setPartitions(
                List.of(new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0).setOffset(offset))));
        DeleteRecordsResponse response = wire.roundTrip(new DeleteRecordsRequest.Builder(data).build(version));
        DeleteRecordsResponseData.DeleteRecordsTopicResult result = response.data().topics().find(topic);
        return result.partitions().find(0);
    }
}
