package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;

/**
 * OffsetDelete (key 47), v0: drops committed offsets. A group error (GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP) answers for the whole request; otherwise each partition has its own, e.g.
 * GROUP_SUBSCRIBED_TO_TOPIC for a topic the stable group still consumes.
 */
public final class OffsetDeleteHandler implements ApiHandler<OffsetDeleteRequest> {
    private final GroupCoordinator groups;

    public OffsetDeleteHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<OffsetDeleteResponse> handle(RequestContext context, OffsetDeleteRequest request) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : request.data().topics()) {
            topic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partitionIndex())));
        }
        return context.resume(groups.deleteOffsets(request.data().groupId(), partitions)).thenApply(result -> {
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
