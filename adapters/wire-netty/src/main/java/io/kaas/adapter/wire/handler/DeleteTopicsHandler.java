package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;

/**
 * DeleteTopics (key 20): by name, or from v6 by topic id; each waits at most the request's timeout. DELETE on
 * each topic, else TOPIC_AUTHORIZATION_FAILED for it, as Apache.
 */
public final class DeleteTopicsHandler implements ApiHandler<DeleteTopicsRequest> {
    private final TopicAdminUseCase topics;
    private final Access access;

    public DeleteTopicsHandler(TopicAdminUseCase topics, Access access) {
        this.topics = topics;
        this.access = access;
    }

    @Override
    public CompletionStage<DeleteTopicsResponse> handle(RequestContext context, DeleteTopicsRequest request) {
        for (DeleteTopicsRequestData.DeleteTopicState state : request.topics()) {
            if (state.name() != null && !Uuid.ZERO_UUID.equals(state.topicId())) {
                // Checked before anything is deleted: Apache refuses the whole request.
                throw new InvalidRequestException("Topic name and topic ID can not both be specified.");
            }
        }
        int timeoutMs = request.data().timeoutMs();
        List<CompletableFuture<DeleteTopicsResponseData.DeletableTopicResult>> results = new ArrayList<>();
        for (DeleteTopicsRequestData.DeleteTopicState state : request.topics()) {
            boolean byId = !Uuid.ZERO_UUID.equals(state.topicId());
            CompletionStage<TopicAdminUseCase.DeleteResult> result;
            String name = byId ? topics.byId(TopicIdMapping.fromWire(state.topicId())).map(Topic::name).orElse(null)
                    : state.name();
            if (name != null && !access.topic(context, AclOperation.DELETE, name)) {
                result = CompletableFuture.completedFuture(new TopicAdminUseCase.DeleteResult(
                        KafkaError.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.", null));
            } else if (byId) {
                result = topics.deleteById(TopicIdMapping.fromWire(state.topicId()), timeoutMs);
            } else if (state.name() == null) {
                result = CompletableFuture.completedFuture(new TopicAdminUseCase.DeleteResult(
                        KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "Neither a topic name nor a topic id was given.", null));
            } else {
                result = topics.deleteByName(state.name(), timeoutMs);
            }
            results.add(result.thenApply(r -> toWire(state, r)).toCompletableFuture());
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(all -> {
            DeleteTopicsResponseData response = new DeleteTopicsResponseData();
            results.forEach(r -> response.responses().add(r.join()));
            return new DeleteTopicsResponse(response);
        });
    }

    private static DeleteTopicsResponseData.DeletableTopicResult toWire(DeleteTopicsRequestData.DeleteTopicState state,
                                                                        TopicAdminUseCase.DeleteResult result) {
        DeleteTopicsResponseData.DeletableTopicResult wire = new DeleteTopicsResponseData.DeletableTopicResult()
                .setName(result.topic() != null ? result.topic().name() : state.name())
                .setTopicId(result.topic() != null ? TopicIdMapping.toWire(result.topic().id()) : state.topicId())
                .setErrorCode(result.error().code());
        if (result.error() != KafkaError.NONE) {
            wire.setErrorMessage(result.message());
        }
        return wire;
    }
}
