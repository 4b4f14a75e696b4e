package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreatePartitionsResponse;
import org.junit.jupiter.api.BeforeEach;

/** CreatePartitions at every served version: grow only, Apache's errors for everything else. */
class CreatePartitionsHandlerTest extends HandlerTestBase {
    @BeforeEach
    void createTopics() {
        broker.createTopic("orders", 2);
    }

    @ServedVersionsTest(ApiKeys.CREATE_PARTITIONS)
    void growsATopicAndServesTheNewPartitions(short version) {
        CreatePartitionsResponse response = send(version, false, topic("orders", 5, null));

        assertThat(response.data().results()).singleElement().satisfies(r -> {
            assertThat(r.name()).isEqualTo("orders");
            assertThat(r.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(r.errorMessage()).isNull();
        });
        assertThat(broker.topics().byName("orders").orElseThrow().partitionCount()).isEqualTo(5);
        assertThat(broker.topics().log(new TopicPartition("orders", 4))).isPresent();
    }

    @ServedVersionsTest(ApiKeys.CREATE_PARTITIONS)
    void validateOnlyGrowsNothing(short version) {
        CreatePartitionsResponse response = send(version, true, topic("orders", 5, null));

        assertThat(response.data().results().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(broker.topics().byName("orders").orElseThrow().partitionCount()).isEqualTo(2);
    }

    @ServedVersionsTest(ApiKeys.CREATE_PARTITIONS)
    void eachTopicGetsItsOwnError(short version) {
        broker.createTopic("audit", 1);
        broker.createTopic("wide", 1);
        CreatePartitionsResponse response = send(version, false,
                topic("orders", 2, null),
                topic("audit", 3, List.of(List.of(InMemoryBroker.BROKER_ID), List.of(7))),
                topic("missing", 3, null),
                topic("wide", InMemoryBroker.MAX_PARTITIONS_PER_TOPIC + 1, null));

        assertThat(response.data().results()).extracting(CreatePartitionsResponseData.CreatePartitionsTopicResult::name,
                CreatePartitionsResponseData.CreatePartitionsTopicResult::errorCode,
                CreatePartitionsResponseData.CreatePartitionsTopicResult::errorMessage).containsExactly(
                tuple("orders", Errors.INVALID_PARTITIONS.code(), "Topic already has 2 partition(s)."),
                tuple("audit", Errors.INVALID_REPLICA_ASSIGNMENT.code(),
                        "The manual partition assignment includes broker 7, but no such broker is registered."),
                tuple("missing", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), null),
                tuple("wide", Errors.POLICY_VIOLATION.code(), "Topic 'wide' would have 101 partitions, more than the 100 "
                        + "this broker allows per topic (KAAS_MAX_PARTITIONS_PER_TOPIC)."));
        assertThat(broker.topics().byName("audit").orElseThrow().partitionCount()).isEqualTo(1);
    }

    @ServedVersionsTest(ApiKeys.CREATE_PARTITIONS)
    void aTopicNamedTwiceIsAnInvalidRequestListedFirst(short version) {
        broker.createTopic("audit", 1);
        CreatePartitionsResponse response = send(version, false, topic("audit", 2, null), topic("orders", 3, null),
                topic("orders", 4, null));

        assertThat(response.data().results()).extracting(CreatePartitionsResponseData.CreatePartitionsTopicResult::name,
                CreatePartitionsResponseData.CreatePartitionsTopicResult::errorCode).containsExactly(
                tuple("orders", Errors.INVALID_REQUEST.code()), tuple("audit", Errors.NONE.code()));
        assertThat(response.data().results().get(0).errorMessage()).isEqualTo("Duplicate topic name.");
        assertThat(broker.topics().byName("orders").orElseThrow().partitionCount()).isEqualTo(2);
    }

    private CreatePartitionsResponse send(short version, boolean validateOnly,
                                          CreatePartitionsRequestData.CreatePartitionsTopic... topics) {
        CreatePartitionsRequestData data = new CreatePartitionsRequestData().setTimeoutMs(30_000)
                .setValidateOnly(validateOnly);
        for (CreatePartitionsRequestData.CreatePartitionsTopic t : topics) {
            data.topics().mustAdd(t);
        }
        return wire.roundTrip(new CreatePartitionsRequest.Builder(data).build(version));
    }

    private static CreatePartitionsRequestData.CreatePartitionsTopic topic(String name, int count, List<List<Integer>> assignments) {
        CreatePartitionsRequestData.CreatePartitionsTopic topic = new CreatePartitionsRequestData.CreatePartitionsTopic()
                .setName(name).setCount(count).setAssignments(null);
        if (assignments != null) {
            topic.setAssignments(assignments.stream().map(brokers ->
                    new CreatePartitionsRequestData.CreatePartitionsAssignment().setBrokerIds(brokers)).toList());
        }
        return topic;
    }
}
