package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.junit.jupiter.api.BeforeEach;

/** DeleteTopics at every served version: by name, and from v6 by topic id. */
class DeleteTopicsHandlerTest extends HandlerTestBase {
    private Topic orders;

    @BeforeEach
    void createTopics() {
        orders = broker.createTopic("orders", 2);
        broker.createTopic("audit", 1);
    }

    @ServedVersionsTest(ApiKeys.DELETE_TOPICS)
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

    @ServedVersionsTest(value = ApiKeys.DELETE_TOPICS, from = 6) // v6: topic ids
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

    @ServedVersionsTest(value = ApiKeys.DELETE_TOPICS, from = 6) // v6: topic ids
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

    @ServedVersionsTest(value = ApiKeys.DELETE_TOPICS, from = 6) // v6: topic ids
    void aTopicGivenByNeitherNameNorIdIsUnknown(short version) {
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName(null));

        DeleteTopicsResponse response = wire.roundTrip(new DeleteTopicsRequest.Builder(data).build(version));

        assertThat(response.data().responses()).singleElement().satisfies(r ->
                assertThat(r.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        assertThat(broker.topics().all()).hasSize(2);
    }
}
