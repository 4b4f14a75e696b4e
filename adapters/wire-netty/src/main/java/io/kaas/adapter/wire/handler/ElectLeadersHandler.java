package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.PartitionLeadershipUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ElectLeadersRequest;
import org.apache.kafka.common.requests.ElectLeadersResponse;

/**
 * ElectLeaders (key 43), preferred or unclean: every partition's only replica already leads, so each
 * named partition answers ELECTION_NOT_NEEDED, and a request for all partitions an empty list.
 */
public final class ElectLeadersHandler implements ApiHandler<ElectLeadersRequest> {
    private final PartitionLeadershipUseCase leadership;
    private final Access access;

    public ElectLeadersHandler(PartitionLeadershipUseCase leadership, Access access) {
        this.leadership = leadership;
        this.access = access;
    }

    @Override
    public CompletionStage<ElectLeadersResponse> handle(RequestContext context, ElectLeadersRequest request) {
        if (!access.cluster(context, AclOperation.ALTER)) {
            return Refused.with(request, Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
        List<TopicPartition> partitions = null;
        if (request.data().topicPartitions() != null) {
            partitions = new ArrayList<>();
            for (ElectLeadersRequestData.TopicPartitions topic : request.data().topicPartitions()) {
                for (int p : topic.partitions()) {
                    partitions.add(new TopicPartition(topic.topic(), p));
                }
            }
        }
        Map<TopicPartition, Outcome> results = leadership.electLeaders(partitions);
        ElectLeadersResponseData data = new ElectLeadersResponseData().setErrorCode(Errors.NONE.code());
        data.replicaElectionResults().addAll(ByTopic.group(results.entrySet(), e -> e.getKey().topic(),
                name -> new ElectLeadersResponseData.ReplicaElectionResult().setTopic(name),
                (topic, e) -> topic.partitionResult().add(new ElectLeadersResponseData.PartitionResult()
                        .setPartitionId(e.getKey().partition())
                        .setErrorCode(e.getValue().error().code())
                        .setErrorMessage(e.getValue().message()))));
        return CompletableFuture.completedFuture(new ElectLeadersResponse(data));
    }
}
