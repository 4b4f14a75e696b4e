package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ConfigMapping;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;

/**
 * CreateTopics (key 19): creates each topic, or with validate_only checks it could be created. From
 * v5 a created topic's result lists every config it has, with its source, as Apache does. The topics
 * are created side by side, each waiting at most the request's timeout to be served; the response
 * lists them in request order.
 *
 * <p>Each topic's partitions are charged to the client's {@code controller_mutation_rate} (KIP-599): from v6 a topic
 * over the quota gets THROTTLING_QUOTA_EXCEEDED, before that it is created and the client only throttled; the
 * throttle goes into {@code throttle_time_ms}.
 */
public final class CreateTopicsHandler implements ApiHandler<CreateTopicsRequest> {
    /** A single writer per partition: every topic's true replication factor. */
    private static final short REPLICATION_FACTOR = 1;
    /** The first version that can carry THROTTLING_QUOTA_EXCEEDED: from it the quota is strict. */
    private static final short STRICT_QUOTA_SINCE = 6;

    private final TopicAdminUseCase topics;
    private final ConfigUseCase configs;
    private final Access access;
    private final QuotaEnforcement quotas;

    public CreateTopicsHandler(TopicAdminUseCase topics, ConfigUseCase configs, Access access,
                               QuotaEnforcement quotas) {
        this.topics = topics;
        this.configs = configs;
        this.access = access;
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<CreateTopicsResponse> handle(RequestContext context, CreateTopicsRequest request) {
        CreateTopicsRequestData data = request.data();
        Set<String> duplicates = duplicates(data);
        Set<String> answered = new HashSet<>();
        List<CompletableFuture<CreateTopicsResponseData.CreatableTopicResult>> results = new ArrayList<>();
        boolean createAny = access.cluster(context, AclOperation.CREATE);
        MutationQuota quota = quotas.controllerMutation(context.user(), context.clientId(),
                request.version() >= STRICT_QUOTA_SINCE);
        for (CreateTopicsRequestData.CreatableTopic topic : data.topics()) {
            if (duplicates.contains(topic.name())) {
                if (answered.add(topic.name())) {
                    results.add(CompletableFuture.completedFuture(failed(topic.name(), Errors.INVALID_REQUEST,
                            "Create topics request from client contains multiple entries for the following topics: "
                                    + topic.name())));
                }
                continue;
            }
            if (!createAny && !access.topic(context, AclOperation.CREATE, topic.name())) {
                results.add(CompletableFuture.completedFuture(failed(topic.name(), Errors.TOPIC_AUTHORIZATION_FAILED,
                        "Authorization failed.")));
                continue;
            }
            boolean describable = access.topic(context, AclOperation.DESCRIBE_CONFIGS, topic.name());
            results.add(topics.create(new TopicAdminUseCase.CreateCommand(topic.name(), topic.numPartitions(),
                    topic.replicationFactor(), assignments(topic), configs(topic), data.validateOnly()), data.timeoutMs(), quota)
                    .thenApply(result -> result.error() == KafkaError.NONE ? created(result.topic(), describable)
                            : failed(topic.name(), Errors.forCode(result.error().code()), result.message()))
                    .toCompletableFuture());
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(all -> {
            CreateTopicsResponseData response = new CreateTopicsResponseData().setThrottleTimeMs(quota.throttleTimeMs());
            results.forEach(result -> response.topics().add(result.join()));
            return new CreateTopicsResponse(response);
        });
    }

    /** A created topic, its configs shown only to a principal that may describe them (as Apache). */
    private CreateTopicsResponseData.CreatableTopicResult created(Topic topic, boolean describable) {
        CreateTopicsResponseData.CreatableTopicResult result = new CreateTopicsResponseData.CreatableTopicResult()
                .setName(topic.name())
                .setTopicId(TopicIdMapping.toWire(topic.id()))
                .setErrorCode(Errors.NONE.code())
                .setErrorMessage(null) // the generated default is "", Apache answers null on success
                .setNumPartitions(topic.partitionCount())
                .setReplicationFactor(REPLICATION_FACTOR)
                .setTopicConfigErrorCode(Errors.NONE.code());
        return describable ? result.setConfigs(ConfigMapping.createTopicConfigs(configs.topicConfigs(topic.configs())))
                : result.setTopicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
    }

    private static CreateTopicsResponseData.CreatableTopicResult failed(String name, Errors error, String message) {
        return new CreateTopicsResponseData.CreatableTopicResult().setName(name).setErrorCode(error.code())
                .setErrorMessage(message).setNumPartitions(-1).setReplicationFactor((short) -1);
    }

    private static Map<Integer, List<Integer>> assignments(CreateTopicsRequestData.CreatableTopic topic) {
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        topic.assignments().forEach(a -> out.put(a.partitionIndex(), List.copyOf(a.brokerIds())));
        return out;
    }

    private static Map<String, String> configs(CreateTopicsRequestData.CreatableTopic topic) {
        Map<String, String> out = new HashMap<>();
        topic.configs().forEach(c -> out.put(c.name(), c.value()));
        return out;
    }

    private static Set<String> duplicates(CreateTopicsRequestData data) {
        Set<String> seen = new HashSet<>();
        Set<String> twice = new HashSet<>();
        data.topics().forEach(t -> {
            if (!seen.add(t.name())) {
                twice.add(t.name());
            }
        });
        return twice;
    }
}
