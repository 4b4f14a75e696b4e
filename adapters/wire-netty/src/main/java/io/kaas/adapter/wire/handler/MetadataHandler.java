package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.MetadataUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;

/**
 * Metadata (key 3): brokers, controller, topics, partitions and their leaders. Authorization as Apache's:
 * DESCRIBE on a topic to see it, CREATE (cluster or topic) to auto-create it, and the authorized
 * operations of topics and cluster when asked for.
 */
public final class MetadataHandler implements ApiHandler<MetadataRequest> {
    /** Metadata v12 is the first to look topics up by id (v10 and v11 carry the field but may not use it). */
    private static final short FIRST_TOPIC_ID_VERSION = 12;

    private final MetadataUseCase metadata;
    private final TopicAdminUseCase topics;
    private final ClusterUseCase cluster;
    private final Access access;

    public MetadataHandler(MetadataUseCase metadata, TopicAdminUseCase topics, ClusterUseCase cluster, Access access) {
        this.metadata = metadata;
        this.topics = topics;
        this.cluster = cluster;
        this.access = access;
    }

    @Override
    public CompletionStage<MetadataResponse> handle(RequestContext context, MetadataRequest request) {
        MetadataRequestData data = request.data();
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(cluster.clusterId())
                .setControllerId(cluster.controllerId())
                .setClusterAuthorizedOperations(access.clusterOperations(context, data.includeClusterAuthorizedOperations()));
        for (ClusterUseCase.Broker broker : cluster.brokers()) {
            response.brokers().add(new MetadataResponseData.MetadataResponseBroker()
                    .setNodeId(broker.id()).setHost(broker.host()).setPort(broker.port()).setRack(broker.rack()));
        }
        CompletionStage<List<MetadataUseCase.TopicMetadata>> described;
        List<MetadataResponseData.MetadataResponseTopic> refused = new ArrayList<>();
        if (request.isAllTopics()) {
            // As Apache: topics the principal may not describe are left out of "all topics", without a trace.
            List<MetadataUseCase.TopicMetadata> all = metadata.describe(null);
            described = CompletableFuture.completedFuture(!access.enabled() ? all : all.stream()
                    .filter(t -> access.topic(context, AclOperation.DESCRIBE, t.name())).toList());
        } else {
            // As Apache: ids only from v12 (then names are ignored, clients send ""), names otherwise.
            List<Uuid> ids = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (MetadataRequestData.MetadataRequestTopic t : data.topics()) {
                boolean byId = !Uuid.ZERO_UUID.equals(t.topicId());
                if (byId ? request.version() < FIRST_TOPIC_ID_VERSION : t.name() == null) {
                    throw new InvalidRequestException("A topic needs a name, or from Metadata version "
                            + FIRST_TOPIC_ID_VERSION + " an id; got neither in version " + request.version());
                }
                if (byId) {
                    ids.add(t.topicId());
                } else {
                    names.add(t.name());
                }
            }
            if (ids.isEmpty()) {
                boolean autoCreate = data.allowAutoTopicCreation() && metadata.createsTopics();
                names = authorizedNames(context, names, autoCreate, refused);
                described = data.allowAutoTopicCreation() ? context.resume(metadata.describeOrCreate(names))
                        : CompletableFuture.completedFuture(metadata.describe(names));
            } else {
                ids.forEach(id -> addById(context, response, id, data.includeTopicAuthorizedOperations()));
                described = CompletableFuture.completedFuture(List.of());
            }
        }
        return described.thenApply(topics -> {
            for (MetadataUseCase.TopicMetadata topic : topics) {
                response.topics().add(toWire(context, topic, data.includeTopicAuthorizedOperations()));
            }
            response.topics().addAll(refused);
            return new MetadataResponse(response, request.version());
        });
    }

    /**
     * The named topics to describe (or create), as Apache decides: one the principal may not describe answers
     * TOPIC_AUTHORIZATION_FAILED whether it exists or not; one that does not exist and would be auto-created (the
     * client and the broker allow it) needs CREATE on the cluster or on the topic, else TOPIC_AUTHORIZATION_FAILED. The refusals go to
     * {@code refused}, in Apache's order: refused creations first.
     */
    private List<String> authorizedNames(RequestContext context, List<String> names, boolean autoCreate,
                                         List<MetadataResponseData.MetadataResponseTopic> refused) {
        if (!access.enabled()) {
            return names;
        }
        List<String> allowed = new ArrayList<>();
        List<String> notDescribable = new ArrayList<>();
        boolean createAny = autoCreate && access.cluster(context, AclOperation.CREATE);
        for (String name : names) {
            if (!access.topic(context, AclOperation.DESCRIBE, name)) {
                notDescribable.add(name);
            } else if (autoCreate && !createAny && topics.byName(name).isEmpty()
                    && !access.topic(context, AclOperation.CREATE, name)) {
                refused.add(refusedTopic(name));
            } else {
                allowed.add(name);
            }
        }
        notDescribable.forEach(name -> refused.add(refusedTopic(name)));
        return allowed;
    }

    private static MetadataResponseData.MetadataResponseTopic refusedTopic(String name) {
        return new MetadataResponseData.MetadataResponseTopic().setName(name).setTopicId(Uuid.ZERO_UUID)
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setIsInternal(false);
    }

    /**
     * A topic asked for by id (v12+): described by its name, or UNKNOWN_TOPIC_ID; one the principal may not
     * describe answers TOPIC_AUTHORIZATION_FAILED with its id and no name (ids are not secret, as Apache says).
     */
    private void addById(RequestContext context, MetadataResponseData response, Uuid id, boolean includeOperations) {
        Optional<Topic> topic = topics.byId(TopicIdMapping.fromWire(id));
        if (topic.isEmpty()) {
            response.topics().add(new MetadataResponseData.MetadataResponseTopic()
                    .setName(null).setTopicId(id).setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()));
            return;
        }
        if (!access.topic(context, AclOperation.DESCRIBE, topic.get().name())) {
            response.topics().add(new MetadataResponseData.MetadataResponseTopic()
                    .setName(null).setTopicId(id).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            return;
        }
        for (MetadataUseCase.TopicMetadata described : metadata.describe(List.of(topic.get().name()))) {
            response.topics().add(toWire(context, described, includeOperations));
        }
    }

    private MetadataResponseData.MetadataResponseTopic toWire(RequestContext context, MetadataUseCase.TopicMetadata topic,
                                                              boolean includeOperations) {
        MetadataResponseData.MetadataResponseTopic wire = new MetadataResponseData.MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(TopicIdMapping.toWire(topic.id()))
                .setErrorCode(topic.error().code())
                .setIsInternal(false);
        if (topic.error() == KafkaError.NONE) {
            wire.setTopicAuthorizedOperations(access.operations(context, includeOperations, AclResourceType.TOPIC,
                    topic.name()));
        }
        for (MetadataUseCase.PartitionMetadata p : topic.partitions()) {
            wire.partitions().add(new MetadataResponseData.MetadataResponsePartition()
                    .setPartitionIndex(p.partition())
                    .setErrorCode(p.error().code())
                    .setLeaderId(p.leaderId())
                    .setLeaderEpoch(p.leaderEpoch())
                    .setReplicaNodes(p.replicas())
                    .setIsrNodes(p.replicas())
                    .setOfflineReplicas(List.of()));
        }
        return wire;
    }
}
