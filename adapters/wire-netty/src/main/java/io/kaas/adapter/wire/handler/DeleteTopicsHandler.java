package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.QuotaEnforcement;
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
 * each topic, else TOPIC_AUTHORIZATION_FAILED for it, as Apache. Each deleted topic's partitions are charged to the
 * client's {@code controller_mutation_rate} (KIP-599): from v5 a topic over the quota gets THROTTLING_QUOTA_EXCEEDED,
 * before that the client is only throttled.
 */
public final class DeleteTopicsHandler implements ApiHandler<DeleteTopicsRequest> {
    /** The first version that can carry THROTTLING_QUOTA_EXCEEDED: from it the quota is strict. */
    private static final short STRICT_QUOTA_SINCE = 5;

    private final TopicAdminUseCase topics;
    private final Access access;
    private final QuotaEnforcement quotas;

    public DeleteTopicsHandler(TopicAdminUseCase topics, Access access, QuotaEnforcement quotas) {
        this.topics = topics;
        this.access = access;
        this.quotas = quotas;
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
        MutationQuota quota = quotas.controllerMutation(context.user(), context.clientId(),
                request.version() >= STRICT_QUOTA_SINCE);
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
                result = topics.deleteById(TopicIdMapping.fromWire(state.topicId()), timeoutMs, quota);
            } else if (state.name() == null) {
                result = CompletableFuture.completedFuture(new TopicAdminUseCase.DeleteResult(
                        KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "Neither a topic name nor a topic id was given.", null));
            } else {
                result = topics.deleteByName(state.name(), timeoutMs, quota);
            }
            results.add(result.thenApply(r -> toWire(state, r)).toCompletableFuture());
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(all -> {
            DeleteTopicsResponseData response = new DeleteTopicsResponseData().setThrottleTimeMs(quota.throttleTimeMs());
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
