package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.BeforeEach;

/** ListOffsets at every served version against a partition holding offsets 0-2 (timestamps 1000, 1000, 2000). */
class ListOffsetsHandlerTest extends HandlerTestBase {
    private static final long LATEST = ListOffsetsRequest.LATEST_TIMESTAMP;
    private static final long EARLIEST = ListOffsetsRequest.EARLIEST_TIMESTAMP;
    private static final long MAX_TIMESTAMP = ListOffsetsRequest.MAX_TIMESTAMP;
    private static final long EARLIEST_LOCAL = ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP;

    @BeforeEach
    void produce() {
        broker.createTopic("orders", 2);
        ProduceResponse first = wire.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 0,
                TestRecords.batch(1_000L, "a", "b")));
        ProduceResponse second = wire.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 0,
                TestRecords.batch(2_000L, "c")));
        assertThat(first.data().responses().find("orders").partitionResponses().get(0).errorCode()).isZero();
        assertThat(second.data().responses().find("orders").partitionResponses().get(0).baseOffset()).isEqualTo(2L);
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void earliestIsTheLogStart(short version) {
        assertAnswer(single(version, "orders", 0, EARLIEST), -1L, 0L, version);
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void latestIsTheHighWatermark(short version) {
        assertAnswer(single(version, "orders", 0, LATEST), -1L, 3L, version);
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void aTimestampFindsTheFirstBatchReachingIt(short version) {
        assertAnswer(single(version, "orders", 0, 1_500L), 2_000L, 2L, version);
        assertAnswer(single(version, "orders", 0, 1_000L), 1_000L, 0L, version);
        assertAnswer(single(version, "orders", 0, 0L), 1_000L, 0L, version);
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void aTimestampPastEveryRecordFindsNothing(short version) {
        ListOffsetsResponseData.ListOffsetsPartitionResponse p = single(version, "orders", 0, 5_000L);

        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.offset()).isEqualTo(-1L);
        assertThat(p.timestamp()).isEqualTo(-1L);
        assertThat(p.leaderEpoch()).isEqualTo(-1);
    }

    @ServedVersionsTest(value = ApiKeys.LIST_OFFSETS, from = 7) // v7: MAX_TIMESTAMP
    void maxTimestampFindsTheLatestRecordTime(short version) {
        assertAnswer(single(version, "orders", 0, MAX_TIMESTAMP), 2_000L, 2L, version);
    }

    @ServedVersionsTest(value = ApiKeys.LIST_OFFSETS, from = 8) // v8: EARLIEST_LOCAL_TIMESTAMP
    void earliestLocalIsTheLogStartWithoutARemoteTier(short version) {
        assertAnswer(single(version, "orders", 0, EARLIEST_LOCAL), -1L, 0L, version);
    }

    @ServedVersionsTest(value = ApiKeys.LIST_OFFSETS, from = 2) // v2: isolation_level
    void readCommittedLatestIsTheLastStableOffset(short version) {
        ListOffsetsRequest request = request(IsolationLevel.READ_COMMITTED, List.of(topic("orders", p(0, LATEST))))
                .build(version);

        ListOffsetsResponseData.ListOffsetsPartitionResponse p = onlyPartition(wire.roundTrip(request));

        assertThat(p.offset()).isEqualTo(3L);
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void aPartitionAskedForTwiceIsAnInvalidRequest(short version) {
        ListOffsetsRequest request = request(IsolationLevel.READ_UNCOMMITTED,
                List.of(topic("orders", p(0, EARLIEST), p(1, LATEST), p(0, LATEST)))).build(version);

        ListOffsetsResponse response = wire.roundTrip(request);

        assertThat(response.data().topics()).singleElement().satisfies(t -> assertThat(t.partitions())
                .extracting(ListOffsetsResponseData.ListOffsetsPartitionResponse::partitionIndex,
                        ListOffsetsResponseData.ListOffsetsPartitionResponse::errorCode,
                        ListOffsetsResponseData.ListOffsetsPartitionResponse::offset)
                .containsExactly(
                        tuple(0, Errors.INVALID_REQUEST.code(), -1L),
                        tuple(1, Errors.NONE.code(), 0L),
                        tuple(0, Errors.INVALID_REQUEST.code(), -1L)));
    }

    @ServedVersionsTest(ApiKeys.LIST_OFFSETS)
    void anUnknownTopicIsUnknownTopicOrPartition(short version) {
        ListOffsetsResponseData.ListOffsetsPartitionResponse p = single(version, "missing", 0, LATEST);

        assertThat(p.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(p.offset()).isEqualTo(-1L);
    }

    private ListOffsetsResponseData.ListOffsetsPartitionResponse single(short version, String topic, int partition,
                                                                       long timestamp) {
        ListOffsetsRequest request = request(IsolationLevel.READ_UNCOMMITTED, List.of(topic(topic, p(partition, timestamp))))
                .build(version);
        ListOffsetsResponse response = wire.roundTrip(request);
        assertThat(response.data().topics()).singleElement().satisfies(t -> assertThat(t.name()).isEqualTo(topic));
        return onlyPartition(response);
    }

    private static void assertAnswer(ListOffsetsResponseData.ListOffsetsPartitionResponse p, long timestamp, long offset,
                                     short version) {
        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.timestamp()).as("timestamp").isEqualTo(timestamp);
        assertThat(p.offset()).as("offset").isEqualTo(offset);
        assertThat(p.leaderEpoch()).as("leader epoch (v4+)").isEqualTo(version >= 4 ? 0 : -1);
    }

    private static ListOffsetsResponseData.ListOffsetsPartitionResponse onlyPartition(ListOffsetsResponse response) {
        assertThat(response.data().topics()).hasSize(1);
        List<ListOffsetsResponseData.ListOffsetsPartitionResponse> partitions =
                response.data().topics().get(0).partitions();
        assertThat(partitions).hasSize(1);
        return partitions.get(0);
    }

    private static ListOffsetsRequest.Builder request(IsolationLevel isolation, List<ListOffsetsRequestData.ListOffsetsTopic> topics) {
        return ListOffsetsRequest.Builder.forConsumer(false, isolation, false).setTargetTimes(topics);
    }

    private static ListOffsetsRequestData.ListOffsetsTopic topic(String name,
                                                               ListOffsetsRequestData.ListOffsetsPartition... partitions) {
        return new ListOffsetsRequestData.ListOffsetsTopic().setName(name).setPartitions(new ArrayList<>(List.of(partitions)));
    }

    private static ListOffsetsRequestData.ListOffsetsPartition p(int index, long timestamp) {
        return new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(index).setTimestamp(timestamp);
    }
}
