package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;

/**
 * OffsetDelete (key 47), v0: drops committed offsets. A group error (GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP) answers for the whole request; otherwise each partition has its own, e.g.
 * GROUP_SUBSCRIBED_TO_TOPIC for a topic the stable group still consumes. As Apache: DELETE on the group, else
 * GROUP_AUTHORIZATION_FAILED; READ on each topic, else TOPIC_AUTHORIZATION_FAILED for its partitions.
 */
public final class OffsetDeleteHandler implements ApiHandler<OffsetDeleteRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public OffsetDeleteHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<OffsetDeleteResponse> handle(RequestContext context, OffsetDeleteRequest request) {
        if (!access.group(context, AclOperation.DELETE, request.data().groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        List<TopicPartition> partitions = new ArrayList<>();
        Map<TopicPartition, KafkaError> refused = new LinkedHashMap<>();
        for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : request.data().topics()) {
            boolean readable = access.topic(context, AclOperation.READ, topic.name());
            topic.partitions().forEach(p -> {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                if (readable) {
                    partitions.add(tp);
                } else {
                    refused.put(tp, KafkaError.TOPIC_AUTHORIZATION_FAILED);
                }
            });
        }
        return context.resume(groups.deleteOffsets(request.data().groupId(), partitions)).thenApply(deleted -> {
            Map<TopicPartition, KafkaError> results = new LinkedHashMap<>(deleted.partitions());
            results.putAll(refused);
            GroupCoordinator.OffsetDeleteResult result = new GroupCoordinator.OffsetDeleteResult(deleted.error(), results);
            OffsetDeleteResponseData data = new OffsetDeleteResponseData().setErrorCode(ErrorMapping.toErrors(result.error()).code());
            if (result.error() == KafkaError.NONE) {
                data.topics().addAll(ByTopic.group(result.partitions().entrySet(), r -> r.getKey().topic(),
                        name -> new OffsetDeleteResponseData.OffsetDeleteResponseTopic().setName(name),
                        (topic, r) -> topic.partitions().add(new OffsetDeleteResponseData.OffsetDeleteResponsePartition()
                                .setPartitionIndex(r.getKey().partition())
                                .setErrorCode(ErrorMapping.toErrors(r.getValue()).code()))));
            }
            return new OffsetDeleteResponse(data);
        });
    }
}
