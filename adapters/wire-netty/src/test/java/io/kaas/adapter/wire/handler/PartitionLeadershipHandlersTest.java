package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsResponse;
import org.apache.kafka.common.requests.ElectLeadersRequest;
import org.apache.kafka.common.requests.ElectLeadersResponse;
import org.apache.kafka.common.requests.ListPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;
import org.junit.jupiter.api.BeforeEach;

/**
 * ElectLeaders, AlterPartitionReassignments and ListPartitionReassignments at every served version:
 * a partition's one replica is its leader, so elections are never needed and only a reassignment
 * onto that leader is valid.
 */
class PartitionLeadershipHandlersTest extends HandlerTestBase {

    @BeforeEach
    void topic() {
        broker.createTopic("t", 2);
    }

    @ServedVersionsTest(ApiKeys.ELECT_LEADERS)
    void aNamedPartitionNeedsNoElectionAnUnknownOneDoesNotExist(short version) {
        ElectLeadersResponseData data = wire.<ElectLeadersResponse>roundTrip(new ElectLeadersRequest.Builder(
                ElectionType.PREFERRED, List.of(new TopicPartition("t", 1), new TopicPartition("t", 7),
                        new TopicPartition("missing", 0)), 30_000).build(version)).data();

        assertThat(data.replicaElectionResults()).hasSize(2);
        assertThat(data.replicaElectionResults().get(0).partitionResult())
                .extracting(ElectLeadersResponseData.PartitionResult::partitionId, r -> r.errorCode())
                .containsExactly(tuple(1, Errors.ELECTION_NOT_NEEDED.code()),
                        tuple(7, Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        assertThat(data.replicaElectionResults().get(1).topic()).isEqualTo("missing");
    }

    @ServedVersionsTest(ApiKeys.ELECT_LEADERS)
    void electingEveryPartitionReportsNothingWhenNothingNeededElecting(short version) {
        ElectLeadersResponseData data = wire.<ElectLeadersResponse>roundTrip(
                new ElectLeadersRequest.Builder(ElectionType.PREFERRED, null, 30_000).build(version)).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.replicaElectionResults()).isEmpty();
    }

    @ServedVersionsTest(ApiKeys.ALTER_PARTITION_REASSIGNMENTS)
    void onlyTheCurrentLeaderIsAValidTargetAndNothingCanBeCancelled(short version) {
        AlterPartitionReassignmentsRequestData request = new AlterPartitionReassignmentsRequestData().setTimeoutMs(30_000);
        request.topics().add(new AlterPartitionReassignmentsRequestData.ReassignableTopic().setName("t").setPartitions(List.of(
                partition(0, List.of(InMemoryBroker.BROKER_ID)),
                partition(1, List.of(InMemoryBroker.BROKER_ID + 1)),
                partition(1, null))));
        request.topics().add(new AlterPartitionReassignmentsRequestData.ReassignableTopic().setName("missing")
                .setPartitions(List.of(partition(0, List.of(InMemoryBroker.BROKER_ID)))));

        AlterPartitionReassignmentsResponseData data = wire.<AlterPartitionReassignmentsResponse>roundTrip(
                new AlterPartitionReassignmentsRequest.Builder(request).build(version)).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.responses()).extracting(AlterPartitionReassignmentsResponseData.ReassignableTopicResponse::name)
                .containsExactly("t", "missing");
        // partition 1 twice in one request: the later target (a cancel) is the one that counts
        assertThat(data.responses().get(0).partitions())
                .extracting(p -> p.partitionIndex(), p -> p.errorCode())
                .containsExactly(tuple(0, Errors.NONE.code()), tuple(1, Errors.NO_REASSIGNMENT_IN_PROGRESS.code()));
        assertThat(data.responses().get(1).partitions().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    @ServedVersionsTest(ApiKeys.ALTER_PARTITION_REASSIGNMENTS)
    void aBrokerThatIsNotRegisteredIsAnInvalidAssignment(short version) {
        AlterPartitionReassignmentsRequestData request = new AlterPartitionReassignmentsRequestData().setTimeoutMs(30_000);
        request.topics().add(new AlterPartitionReassignmentsRequestData.ReassignableTopic().setName("t").setPartitions(
                List.of(partition(0, Arrays.asList(InMemoryBroker.BROKER_ID, 42)))));

        AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse result =
                wire.<AlterPartitionReassignmentsResponse>roundTrip(new AlterPartitionReassignmentsRequest.Builder(request)
                        .build(version)).data().responses().get(0).partitions().get(0);

        assertThat(result.errorCode()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT.code());
        assertThat(result.errorMessage()).contains("broker 42", "no such broker is registered");
    }

    @ServedVersionsTest(ApiKeys.LIST_PARTITION_REASSIGNMENTS)
    void noReassignmentIsEverInProgress(short version) {
        ListPartitionReassignmentsRequestData all = new ListPartitionReassignmentsRequestData().setTimeoutMs(30_000)
                .setTopics(null);
        ListPartitionReassignmentsRequestData named = new ListPartitionReassignmentsRequestData().setTimeoutMs(30_000)
                .setTopics(List.of(new ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics()
                        .setName("t").setPartitionIndexes(List.of(0, 1))));

        for (ListPartitionReassignmentsRequestData request : List.of(all, named)) {
            ListPartitionReassignmentsResponseData data = wire.<ListPartitionReassignmentsResponse>roundTrip(
                    new ListPartitionReassignmentsRequest.Builder(request).build(version)).data();
            assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(data.topics()).isEmpty();
        }
    }

    private static AlterPartitionReassignmentsRequestData.ReassignablePartition partition(int index, List<Integer> replicas) {
        return new AlterPartitionReassignmentsRequestData.ReassignablePartition().setPartitionIndex(index)
                .setReplicas(replicas);
    }
}
