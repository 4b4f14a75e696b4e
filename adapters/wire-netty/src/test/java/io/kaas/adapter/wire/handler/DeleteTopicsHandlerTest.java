package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** DeleteTopics at every served version: by name, and from v6 by topic id. */
@ExtendWith(NettyLeakDetection.class)
class DeleteTopicsHandlerTest {
    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private Topic orders;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.DELETE_TOPICS);
    }

    static Stream<Short> versionsWithTopicIds() {
        return ServedVersions.from(ApiKeys.DELETE_TOPICS, 6);
    }

    @BeforeEach
    void connect() {
        orders = broker.createTopic("orders", 2);
        broker.createTopic("audit", 1);
        wire = new WireChannel(broker.registry());
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void deletesByName(short version) {
        DeleteTopicsRequest request = new DeleteTopicsRequest.Builder(new DeleteTopicsRequestData()
                .setTopicNames(List.of("orders", "missing")).setTimeoutMs(30_000)).build(version);

        DeleteTopicsResponse response = wire.roundTrip(request);

        DeleteTopicsResponseData.DeletableTopicResult deleted = response.data().responses().find("orders");
        assertThat(deleted.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(deleted.errorMessage()).isNull();
        assertThat(deleted.topicId()).isEqualTo(version >= 6 ? TopicIdMapping.toWire(orders.id()) : Uuid.ZERO_UUID);
        DeleteTopicsResponseData.DeletableTopicResult missing = response.data().responses().find("missing");
        assertThat(missing.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(missing.errorMessage()).isEqualTo(version >= 5 ? "This server does not host this topic-partition." : null);
        assertThat(broker.topics().byName("orders")).isEmpty();
        assertThat(broker.topics().log(new TopicPartition("orders", 0))).as("the partition logs go too").isEmpty();
        assertThat(broker.topics().byName("audit")).as("other topics stay").isPresent();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithTopicIds")
    void deletesByTopicId(short version) {
        Uuid ordersId = TopicIdMapping.toWire(orders.id());
        Uuid unknown = Uuid.fromString("AAAAAAAAAAAAAAAAAAAABA");
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName(null).setTopicId(ordersId));
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName(null).setTopicId(unknown));

        DeleteTopicsResponse response = wire.roundTrip(new DeleteTopicsRequest.Builder(data).build(version));

        List<DeleteTopicsResponseData.DeletableTopicResult> results = List.copyOf(response.data().responses());
        assertThat(results).hasSize(2);
        assertThat(results.get(0).name()).isEqualTo("orders");
        assertThat(results.get(0).topicId()).isEqualTo(ordersId);
        assertThat(results.get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(results.get(1).name()).isNull();
        assertThat(results.get(1).topicId()).isEqualTo(unknown);
        assertThat(results.get(1).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
        assertThat(results.get(1).errorMessage()).isNotBlank();
        assertThat(broker.topics().byId(orders.id())).isEmpty();
        assertThat(broker.topics().byName("audit")).isPresent();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithTopicIds")
    void aTopicGivenByNameAndIdFailsTheWholeRequestBeforeDeletingAnything(short version) {
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName("audit"));
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName("orders")
                .setTopicId(TopicIdMapping.toWire(orders.id())));

        DeleteTopicsResponse response = wire.roundTrip(new DeleteTopicsRequest.Builder(data).build(version));

        assertThat(response.data().responses()).hasSize(2)
                .allSatisfy(r -> assertThat(r.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code()));
        assertThat(broker.topics().byName("audit")).isPresent();
        assertThat(broker.topics().byName("orders")).isPresent();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithTopicIds")
    void aTopicGivenByNeitherNameNorIdIsUnknown(short version) {
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName(null));

        DeleteTopicsResponse response = wire.roundTrip(new DeleteTopicsRequest.Builder(data).build(version));

        assertThat(response.data().responses()).singleElement().satisfies(r ->
                assertThat(r.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        assertThat(broker.topics().all()).hasSize(2);
    }
}
