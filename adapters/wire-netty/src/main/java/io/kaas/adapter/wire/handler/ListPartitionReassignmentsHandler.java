package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.PartitionLeadershipUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;

/** ListPartitionReassignments (key 46): the reassignments in progress, of the named partitions or of all. */
public final class ListPartitionReassignmentsHandler implements ApiHandler<ListPartitionReassignmentsRequest> {
    private final PartitionLeadershipUseCase leadership;
    private final Access access;

    public ListPartitionReassignmentsHandler(PartitionLeadershipUseCase leadership, Access access) {
        this.leadership = leadership;
        this.access = access;
    }

    @Override
    public CompletionStage<ListPartitionReassignmentsResponse> handle(RequestContext context,
                                                                      ListPartitionReassignmentsRequest request) {
        if (!access.cluster(context, AclOperation.DESCRIBE)) {
            return Refused.with(request, Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
        List<TopicPartition> partitions = null;
        if (request.data().topics() != null) {
            partitions = new ArrayList<>();
            for (ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics topic : request.data().topics()) {
                for (int p : topic.partitionIndexes()) {
                    partitions.add(new TopicPartition(topic.name(), p));
                }
            }
        }
        Map<TopicPartition, List<Integer>> ongoing = leadership.ongoingReassignments(partitions);
        ListPartitionReassignmentsResponseData data = new ListPartitionReassignmentsResponseData()
                .setErrorCode(Errors.NONE.code());
        data.topics().addAll(ByTopic.group(ongoing.entrySet(), e -> e.getKey().topic(),
                name -> new ListPartitionReassignmentsResponseData.OngoingTopicReassignment().setName(name),
                (topic, e) -> topic.partitions().add(new ListPartitionReassignmentsResponseData.OngoingPartitionReassignment()
                        .setPartitionIndex(e.getKey().partition()).setReplicas(e.getValue()))));
        return CompletableFuture.completedFuture(new ListPartitionReassignmentsResponse(data));
    }
}
