package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** ListOffsets at every served version against a partition holding offsets 0-2 (timestamps 1000, 1000, 2000). */
@ExtendWith(NettyLeakDetection.class)
class ListOffsetsHandlerTest {
    private static final long LATEST = ListOffsetsRequest.LATEST_TIMESTAMP;
    private static final long EARLIEST = ListOffsetsRequest.EARLIEST_TIMESTAMP;
    private static final long MAX_TIMESTAMP = ListOffsetsRequest.MAX_TIMESTAMP;
    private static final long EARLIEST_LOCAL = ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.LIST_OFFSETS);
    }

    static Stream<Short> versionsWithIsolationLevel() {
        return ServedVersions.from(ApiKeys.LIST_OFFSETS, 2);
    }

    static Stream<Short> versionsWithMaxTimestamp() {
        return ServedVersions.from(ApiKeys.LIST_OFFSETS, 7);
    }

    static Stream<Short> versionsWithEarliestLocal() {
        return ServedVersions.from(ApiKeys.LIST_OFFSETS, 8);
    }

    @BeforeEach
    void produce() {
        broker.createTopic("orders", 2);
        wire = new WireChannel(broker.registry());
        ProduceResponse first = wire.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 0,
                TestRecords.batch(1_000L, "a", "b")));
        ProduceResponse second = wire.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 0,
                TestRecords.batch(2_000L, "c")));
        assertThat(first.data().responses().find("orders").partitionResponses().get(0).errorCode()).isZero();
        assertThat(second.data().responses().find("orders").partitionResponses().get(0).baseOffset()).isEqualTo(2L);
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void earliestIsTheLogStart(short version) {
        assertAnswer(single(version, "orders", 0, EARLIEST), -1L, 0L, version);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void latestIsTheHighWatermark(short version) {
        assertAnswer(single(version, "orders", 0, LATEST), -1L, 3L, version);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aTimestampFindsTheFirstBatchReachingIt(short version) {
        assertAnswer(single(version, "orders", 0, 1_500L), 2_000L, 2L, version);
        assertAnswer(single(version, "orders", 0, 1_000L), 1_000L, 0L, version);
        assertAnswer(single(version, "orders", 0, 0L), 1_000L, 0L, version);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aTimestampPastEveryRecordFindsNothing(short version) {
        ListOffsetsResponseData.ListOffsetsPartitionResponse p = single(version, "orders", 0, 5_000L);

        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.offset()).isEqualTo(-1L);
        assertThat(p.timestamp()).isEqualTo(-1L);
        assertThat(p.leaderEpoch()).isEqualTo(-1);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithMaxTimestamp")
    void maxTimestampFindsTheLatestRecordTime(short version) {
        assertAnswer(single(version, "orders", 0, MAX_TIMESTAMP), 2_000L, 2L, version);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithEarliestLocal")
    void earliestLocalIsTheLogStartWithoutARemoteTier(short version) {
        assertAnswer(single(version, "orders", 0, EARLIEST_LOCAL), -1L, 0L, version);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithIsolationLevel")
    void readCommittedLatestIsTheLastStableOffset(short version) {
        ListOffsetsRequest request = request(IsolationLevel.READ_COMMITTED, List.of(topic("orders", p(0, LATEST))))
                .build(version);

        ListOffsetsResponseData.ListOffsetsPartitionResponse p = onlyPartition(wire.roundTrip(request));

        assertThat(p.offset()).isEqualTo(3L);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
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

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
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
