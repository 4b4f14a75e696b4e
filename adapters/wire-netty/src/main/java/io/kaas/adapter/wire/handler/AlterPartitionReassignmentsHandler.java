package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.PartitionLeadershipUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsResponse;

/** AlterPartitionReassignments (key 45): moves partitions' replica sets, or cancels a move (null replicas). */
public final class AlterPartitionReassignmentsHandler implements ApiHandler<AlterPartitionReassignmentsRequest> {
    private final PartitionLeadershipUseCase leadership;
    private final Access access;

    public AlterPartitionReassignmentsHandler(PartitionLeadershipUseCase leadership, Access access) {
        this.leadership = leadership;
        this.access = access;
    }

    @Override
    public CompletionStage<AlterPartitionReassignmentsResponse> handle(RequestContext context,
                                                                       AlterPartitionReassignmentsRequest request) {
        if (!access.cluster(context, AclOperation.ALTER)) {
            return Refused.with(request, Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
        Map<TopicPartition, List<Integer>> targets = new LinkedHashMap<>();
        for (AlterPartitionReassignmentsRequestData.ReassignableTopic topic : request.data().topics()) {
            for (AlterPartitionReassignmentsRequestData.ReassignablePartition p : topic.partitions()) {
                targets.put(new TopicPartition(topic.name(), p.partitionIndex()), p.replicas());
            }
        }
        Map<TopicPartition, Outcome> results = leadership.reassign(targets);
        AlterPartitionReassignmentsResponseData data = new AlterPartitionReassignmentsResponseData()
                .setErrorCode(Errors.NONE.code());
        data.responses().addAll(ByTopic.group(results.entrySet(), e -> e.getKey().topic(),
                name -> new AlterPartitionReassignmentsResponseData.ReassignableTopicResponse().setName(name),
                (topic, e) -> topic.partitions().add(new AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse()
                        .setPartitionIndex(e.getKey().partition())
                        .setErrorCode(e.getValue().error().code())
                        .setErrorMessage(e.getValue().message()))));
        return CompletableFuture.completedFuture(new AlterPartitionReassignmentsResponse(data));
    }
}
