package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.AuthorizedOperations;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.MetadataUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.error.KafkaError;
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

/** Metadata (key 3): brokers, controller, topics, partitions and their leaders. */
public final class MetadataHandler implements ApiHandler<MetadataRequest> {
    /** Metadata v12 is the first to look topics up by id (v10 and v11 carry the field but may not use it). */
    private static final short FIRST_TOPIC_ID_VERSION = 12;

    private final MetadataUseCase metadata;
    private final TopicAdminUseCase topics;
    private final ClusterUseCase cluster;

    public MetadataHandler(MetadataUseCase metadata, TopicAdminUseCase topics, ClusterUseCase cluster) {
        this.metadata = metadata;
        this.topics = topics;
        this.cluster = cluster;
    }

    @Override
    public CompletionStage<MetadataResponse> handle(RequestContext context, MetadataRequest request) {
        MetadataRequestData data = request.data();
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(cluster.clusterId())
                .setControllerId(cluster.controllerId())
                .setClusterAuthorizedOperations(AuthorizedOperations.cluster(data.includeClusterAuthorizedOperations()));
        for (ClusterUseCase.Broker broker : cluster.brokers()) {
            response.brokers().add(new MetadataResponseData.MetadataResponseBroker()
                    .setNodeId(broker.id()).setHost(broker.host()).setPort(broker.port()).setRack(broker.rack()));
        }
        CompletionStage<List<MetadataUseCase.TopicMetadata>> described;
        if (request.isAllTopics()) {
            described = CompletableFuture.completedFuture(metadata.describe(null));
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
                described = data.allowAutoTopicCreation() ? context.resume(metadata.describeOrCreate(names))
                        : CompletableFuture.completedFuture(metadata.describe(names));
            } else {
                ids.forEach(id -> addById(response, id, data.includeTopicAuthorizedOperations()));
                described = CompletableFuture.completedFuture(List.of());
            }
        }
        return described.thenApply(topics -> {
            for (MetadataUseCase.TopicMetadata topic : topics) {
                response.topics().add(toWire(topic, data.includeTopicAuthorizedOperations()));
            }
            return new MetadataResponse(response, request.version());
        });
    }

    /** A topic asked for by id (v12+): described by its name, or UNKNOWN_TOPIC_ID. */
    private void addById(MetadataResponseData response, Uuid id, boolean includeOperations) {
        Optional<Topic> topic = topics.byId(TopicIdMapping.fromWire(id));
        if (topic.isEmpty()) {
            response.topics().add(new MetadataResponseData.MetadataResponseTopic()
                    .setName(null).setTopicId(id).setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()));
            return;
        }
        for (MetadataUseCase.TopicMetadata described : metadata.describe(List.of(topic.get().name()))) {
            response.topics().add(toWire(described, includeOperations));
        }
    }

    private static MetadataResponseData.MetadataResponseTopic toWire(MetadataUseCase.TopicMetadata topic,
                                                                     boolean includeOperations) {
        MetadataResponseData.MetadataResponseTopic wire = new MetadataResponseData.MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(TopicIdMapping.toWire(topic.id()))
                .setErrorCode(topic.error().code())
                .setIsInternal(false);
        if (topic.error() == KafkaError.NONE) {
            wire.setTopicAuthorizedOperations(AuthorizedOperations.topic(includeOperations));
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
