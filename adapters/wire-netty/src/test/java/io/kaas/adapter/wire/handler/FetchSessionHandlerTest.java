package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fetch sessions (KIP-227, Fetch v7+) on the wire, as Apache's broker keeps them: opened by a full fetch at
 * epoch 0, continued by incremental fetches that name only what changed and are answered only with what
 * changed, closed by a full fetch or by forgetting every partition; a wrong epoch, an unknown session and a
 * switch between topic names and ids are session errors.
 */
@ExtendWith(NettyLeakDetection.class)
class FetchSessionHandlerTest {
    private static final int NO_WAIT = 0;
    private static final int MAX_BYTES = 1024 * 1024;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private Uuid ordersId;

    @BeforeEach
    void twoPartitionsOneWithThreeRecords() {
        ordersId = TopicIdMapping.toWire(broker.createTopic("orders", 2).id());
        wire = new WireChannel(broker.registry());
        produce(0, "a", "b", "c");
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 7)
    void incrementalFetchesNameAndAreAnsweredOnlyWhatChanged(short version) {
        FetchResponseData full = fetch(version, FetchMetadata.INITIAL, Map.of(0, 3L, 1, 0L), List.of());
        int session = full.sessionId();
        assertThat(session).as("a full fetch at epoch 0 opens a session").isNotZero();
        assertThat(answered(full)).containsExactly("0:hw=3", "1:hw=0");

        FetchResponseData idle = fetch(version, new FetchMetadata(session, 1), Map.of(), List.of());
        assertThat(idle.errorCode()).isZero();
        assertThat(idle.sessionId()).isEqualTo(session);
        assertThat(idle.responses()).as("nothing changed").isEmpty();

        produce(1, "d");
        FetchResponseData changed = fetch(version, new FetchMetadata(session, 2), Map.of(), List.of());
        assertThat(answered(changed)).as("only the partition with new data, read from its cached offset")
                .containsExactly("1:hw=1+records");

        FetchResponseData moved = fetch(version, new FetchMetadata(session, 3), Map.of(1, 1L), List.of());
        assertThat(moved.responses()).as("a new offset with nothing behind it changes nothing").isEmpty();
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 7)
    void aWrongEpochIsRefusedAndLeavesTheSessionAsItWas(short version) {
        int session = fetch(version, FetchMetadata.INITIAL, Map.of(0, 3L), List.of()).sessionId();

        FetchResponseData wrong = fetch(version, new FetchMetadata(session, 5), Map.of(), List.of());
        assertThat(wrong.errorCode()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH.code());
        assertThat(wrong.sessionId()).isZero();
        assertThat(wrong.responses()).isEmpty();

        FetchResponseData right = fetch(version, new FetchMetadata(session, 1), Map.of(), List.of());
        assertThat(right.errorCode()).isZero();
        assertThat(right.sessionId()).isEqualTo(session);
        FetchResponseData replayed = fetch(version, new FetchMetadata(session, 1), Map.of(), List.of());
        assertThat(replayed.errorCode()).as("an epoch already used").isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH.code());
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 7)
    void forgettingEveryPartitionEndsTheSession(short version) {
        int session = fetch(version, FetchMetadata.INITIAL, Map.of(0, 3L), List.of()).sessionId();

        FetchResponseData emptied = fetch(version, new FetchMetadata(session, 1), Map.of(), List.of(0));
        assertThat(emptied.errorCode()).isZero();
        assertThat(emptied.sessionId()).as("answered sessionless").isZero();

        FetchResponseData gone = fetch(version, new FetchMetadata(session, 2), Map.of(), List.of());
        assertThat(gone.errorCode()).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 7)
    void aFullFetchClosesTheSessionItNames(short version) {
        int session = fetch(version, FetchMetadata.INITIAL, Map.of(0, 3L), List.of()).sessionId();

        FetchResponseData closing = fetch(version, new FetchMetadata(session, FetchMetadata.FINAL_EPOCH), Map.of(0, 0L),
                List.of());
        assertThat(closing.sessionId()).as("the final epoch opens no new session").isZero();
        assertThat(answered(closing)).containsExactly("0:hw=3+records");
        assertThat(fetch(version, new FetchMetadata(session, 1), Map.of(), List.of()).errorCode())
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());

        int second = fetch(version, FetchMetadata.INITIAL, Map.of(0, 3L), List.of()).sessionId();
        int third = fetch(version, new FetchMetadata(second, FetchMetadata.INITIAL_EPOCH), Map.of(0, 3L), List.of())
                .sessionId();
        assertThat(third).as("epoch 0 with a session id closes it and opens another").isNotZero().isNotEqualTo(second);
        assertThat(fetch(version, new FetchMetadata(second, 1), Map.of(), List.of()).errorCode())
                .isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
    }

    @Test
    void aSessionOpenedWithTopicNamesRefusesAFetchByTopicIds() {
        int session = fetch((short) 12, FetchMetadata.INITIAL, Map.of(0, 3L), List.of()).sessionId();

        FetchResponseData switched = fetch((short) 13, new FetchMetadata(session, 1), Map.of(), List.of());

        assertThat(switched.errorCode()).isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR.code());
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 13)
    void aPartitionOfAnUnknownTopicIdStaysInTheSessionAndIsAnsweredEachTime(short version) {
        Uuid unknown = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAw");
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", 0), new FetchRequest.PartitionData(ordersId, 3L, -1L, MAX_BYTES,
                Optional.empty()));
        partitions.put(new TopicPartition("gone", 0), new FetchRequest.PartitionData(unknown, 0L, -1L, MAX_BYTES,
                Optional.empty()));
        FetchResponseData full = roundTrip(version, FetchMetadata.INITIAL, partitions, List.of());
        int session = full.sessionId();

        FetchResponseData next = fetch(version, new FetchMetadata(session, 1), Map.of(), List.of());

        assertThat(session).isNotZero();
        assertThat(next.responses()).singleElement().satisfies(t -> {
            assertThat(t.topicId()).isEqualTo(unknown);
            assertThat(t.partitions()).singleElement().satisfies(p ->
                    assertThat(p.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code()));
        });
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private void produce(int partition, String... values) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce((short) 9, (short) -1, "orders", partition,
                TestRecords.batch(1_000L, values)));
        assertThat(response.data().responses().find("orders").partitionResponses().get(0).errorCode()).isZero();
    }

    /** A fetch of "orders" partitions (index to fetch offset), forgetting some, in the given session. */
    private FetchResponseData fetch(short version, FetchMetadata metadata, Map<Integer, Long> offsets,
                                    List<Integer> forgotten) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        offsets.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> partitions.put(
                new TopicPartition("orders", e.getKey()),
                new FetchRequest.PartitionData(ordersId, e.getValue(), -1L, MAX_BYTES, Optional.empty())));
        List<TopicIdPartition> forget = forgotten.stream()
                .map(p -> new TopicIdPartition(ordersId, new TopicPartition("orders", p))).toList();
        return roundTrip(version, metadata, partitions, forget);
    }

    private FetchResponseData roundTrip(short version, FetchMetadata metadata,
                                        Map<TopicPartition, FetchRequest.PartitionData> partitions,
                                        List<TopicIdPartition> forgotten) {
        FetchRequest request = FetchRequest.Builder.forConsumer(version, NO_WAIT, 1, partitions).metadata(metadata)
                .removed(forgotten).build(version);
        return wire.<FetchResponse>roundTrip(request).data();
    }

    /** Each answered partition as "index:hw=N", plus "+records" when it carries some. */
    private static List<String> answered(FetchResponseData data) {
        return data.responses().stream().flatMap(t -> t.partitions().stream())
                .map(p -> p.partitionIndex() + ":hw=" + p.highWatermark()
                        + (p.records() != null && ((MemoryRecords) p.records()).sizeInBytes() > 0 ? "+records" : ""))
                .toList();
    }
}
