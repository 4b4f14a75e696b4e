package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;

/** DeleteTopics (key 20): by name, or from v6 by topic id. */
public final class DeleteTopicsHandler implements ApiHandler<DeleteTopicsRequest> {
    private final TopicAdminUseCase topics;

    public DeleteTopicsHandler(TopicAdminUseCase topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<DeleteTopicsResponse> handle(RequestContext context, DeleteTopicsRequest request) {
        DeleteTopicsResponseData response = new DeleteTopicsResponseData();
        for (DeleteTopicsRequestData.DeleteTopicState state : request.topics()) {
            if (state.name() != null && !Uuid.ZERO_UUID.equals(state.topicId())) {
                // Checked before anything is deleted: Apache refuses the whole request.
                throw new InvalidRequestException("Topic name and topic ID can not both be specified.");
            }
        }
        for (DeleteTopicsRequestData.DeleteTopicState state : request.topics()) {
            boolean byId = !Uuid.ZERO_UUID.equals(state.topicId());
            TopicAdminUseCase.DeleteResult result;
            if (byId) {
                result = topics.deleteById(TopicIdMapping.fromWire(state.topicId()));
            } else if (state.name() == null) {
                result = new TopicAdminUseCase.DeleteResult(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
                        "Neither a topic name nor a topic id was given.", null);
            } else {
                result = topics.deleteByName(state.name());
            }
            DeleteTopicsResponseData.DeletableTopicResult wire = new DeleteTopicsResponseData.DeletableTopicResult()
                    .setName(result.topic() != null ? result.topic().name() : state.name())
                    .setTopicId(result.topic() != null ? TopicIdMapping.toWire(result.topic().id()) : state.topicId())
                    .setErrorCode(result.error().code());
            if (result.error() != KafkaError.NONE) {
                wire.setErrorMessage(result.message());
            }
            response.responses().add(wire);
        }
        return CompletableFuture.completedFuture(new DeleteTopicsResponse(response));
    }
}
