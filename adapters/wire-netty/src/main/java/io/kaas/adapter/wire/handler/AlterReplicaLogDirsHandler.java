package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.LogDirsUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsResponseData;
import org.apache.kafka.common.requests.AlterReplicaLogDirsRequest;
import org.apache.kafka.common.requests.AlterReplicaLogDirsResponse;

/**
 * AlterReplicaLogDirs (key 34): moves partitions between this broker's log dirs, named by the paths
 * DescribeLogDirs reports. The answer comes at once and the moves run in the background, as in Apache;
 * DescribeLogDirs shows a move's copy as a future replica until it is done. Without cluster ALTER every
 * partition is CLUSTER_AUTHORIZATION_FAILED; a partition named under two dirs goes to the last, as Apache's
 * map of the request does.
 */
public final class AlterReplicaLogDirsHandler implements ApiHandler<AlterReplicaLogDirsRequest> {
    private final LogDirsUseCase logDirs;
    private final Access access;

    public AlterReplicaLogDirsHandler(LogDirsUseCase logDirs, Access access) {
        this.logDirs = logDirs;
        this.access = access;
    }

    @Override
    public CompletionStage<AlterReplicaLogDirsResponse> handle(RequestContext context, AlterReplicaLogDirsRequest request) {
        Map<TopicPartition, String> destinations = new LinkedHashMap<>();
        for (AlterReplicaLogDirsRequestData.AlterReplicaLogDir dir : request.data().dirs()) {
            for (AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic topic : dir.topics()) {
                for (int partition : topic.partitions()) {
                    destinations.put(new TopicPartition(topic.name(), partition), dir.path());
                }
            }
        }
        if (!access.cluster(context, AclOperation.ALTER)) {
            Map<TopicPartition, KafkaError> refused = new LinkedHashMap<>();
            destinations.keySet().forEach(tp -> refused.put(tp, KafkaError.CLUSTER_AUTHORIZATION_FAILED));
            return CompletableFuture.completedFuture(response(refused));
        }
        return context.resume(logDirs.alter(destinations)).thenApply(AlterReplicaLogDirsHandler::response);
    }

    private static AlterReplicaLogDirsResponse response(Map<TopicPartition, KafkaError> results) {
        AlterReplicaLogDirsResponseData data = new AlterReplicaLogDirsResponseData();
        data.setResults(ByTopic.group(results.entrySet(), e -> e.getKey().topic(),
                name -> new AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult().setTopicName(name),
                (topic, e) -> topic.partitions().add(new AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult()
                        .setPartitionIndex(e.getKey().partition())
                        .setErrorCode(e.getValue().code()))));
        return new AlterReplicaLogDirsResponse(data);
    }
}
