package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreatePartitionsResponse;

/**
 * CreatePartitions (key 37, KIP-195): grows topics, side by side, each waiting at most the request's
 * timeout to be served. As Apache's controller answers, a topic named twice gets INVALID_REQUEST
 * (listed first), the others their own outcome in request order; ALTER on the topic, else
 * TOPIC_AUTHORIZATION_FAILED. The partitions added are charged to the client's {@code controller_mutation_rate}
 * (KIP-599): from v3 a topic over the quota gets THROTTLING_QUOTA_EXCEEDED, before that the client is only throttled.
 */
public final class CreatePartitionsHandler implements ApiHandler<CreatePartitionsRequest> {
    /** The first version that can carry THROTTLING_QUOTA_EXCEEDED: from it the quota is strict. */
    private static final short STRICT_QUOTA_SINCE = 3;

    private final TopicAdminUseCase topics;
    private final Access access;
    private final QuotaEnforcement quotas;

    public CreatePartitionsHandler(TopicAdminUseCase topics, Access access, QuotaEnforcement quotas) {
        this.topics = topics;
        this.access = access;
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<CreatePartitionsResponse> handle(RequestContext context, CreatePartitionsRequest request) {
        CreatePartitionsRequestData data = request.data();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new LinkedHashSet<>();
        for (CreatePartitionsRequestData.CreatePartitionsTopic topic : data.topics()) {
            if (!seen.add(topic.name())) {
                duplicated.add(topic.name());
            }
        }
        MutationQuota quota = quotas.controllerMutation(context.user(), context.clientId(),
                request.version() >= STRICT_QUOTA_SINCE);
        List<CompletableFuture<CreatePartitionsResponseData.CreatePartitionsTopicResult>> results = new ArrayList<>();
        for (String name : duplicated) {
            results.add(CompletableFuture.completedFuture(result(name, new Outcome(KafkaError.INVALID_REQUEST,
                    "Duplicate topic name."))));
        }
        for (CreatePartitionsRequestData.CreatePartitionsTopic topic : data.topics()) {
            if (duplicated.contains(topic.name())) {
                continue;
            }
            if (!access.topic(context, AclOperation.ALTER, topic.name())) {
                results.add(CompletableFuture.completedFuture(result(topic.name(),
                        new Outcome(KafkaError.TOPIC_AUTHORIZATION_FAILED, null))));
                continue;
            }
            results.add(topics.createPartitions(new TopicAdminUseCase.CreatePartitionsCommand(topic.name(),
                            topic.count(), assignments(topic), data.validateOnly()), data.timeoutMs(), quota)
                    .thenApply(outcome -> result(topic.name(), outcome)).toCompletableFuture());
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(all -> {
            CreatePartitionsResponseData response = new CreatePartitionsResponseData()
                    .setThrottleTimeMs(quota.throttleTimeMs());
            results.forEach(result -> response.results().add(result.join()));
            return new CreatePartitionsResponse(response);
        });
    }

    private static List<List<Integer>> assignments(CreatePartitionsRequestData.CreatePartitionsTopic topic) {
        if (topic.assignments() == null) {
            return null;
        }
        List<List<Integer>> lists = new ArrayList<>();
        topic.assignments().forEach(a -> lists.add(List.copyOf(a.brokerIds())));
        return lists;
    }

    private static CreatePartitionsResponseData.CreatePartitionsTopicResult result(String name,
                                                                                 Outcome outcome) {
        return new CreatePartitionsResponseData.CreatePartitionsTopicResult()
                .setName(name)
                .setErrorCode(outcome.error().code())
                .setErrorMessage(outcome.message());
    }
}
