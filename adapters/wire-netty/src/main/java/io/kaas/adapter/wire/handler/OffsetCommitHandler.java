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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;

/**
 * OffsetCommit (key 8), v0-9; answered once the offsets are durable. v0 (ZooKeeper-stored offsets
 * in Apache) commits to the group's file like the other versions, outside group management; v1's
 * commit timestamp and v2-4's retention time are accepted and ignored (offsets do not expire);
 * v6+ leader epochs are stored; v9 is v8 for classic groups (KIP-848 member epochs need
 * ConsumerGroupHeartbeat, which is not served).
 */
public final class OffsetCommitHandler implements ApiHandler<OffsetCommitRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public OffsetCommitHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<OffsetCommitResponse> handle(RequestContext context, OffsetCommitRequest request) {
        OffsetCommitRequestData data = request.data();
        if (!access.group(context, AclOperation.READ, data.groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        List<GroupCoordinator.OffsetCommit> offsets = new ArrayList<>();
        Map<TopicPartition, KafkaError> refused = new LinkedHashMap<>();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : data.topics()) {
            if (!access.topic(context, AclOperation.READ, topic.name())) {
                topic.partitions().forEach(p -> refused.put(new TopicPartition(topic.name(), p.partitionIndex()),
                        KafkaError.TOPIC_AUTHORIZATION_FAILED));
                continue;
            }
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                // v1's per-partition commit timestamp and v2-4's retention time are honoured as Apache's
                // are; later versions carry neither (their defaults, -1, mean the broker decides)
                offsets.add(new GroupCoordinator.OffsetCommit(new TopicPartition(topic.name(), p.partitionIndex()),
                        p.committedOffset(), p.committedLeaderEpoch(), p.committedMetadata(), p.commitTimestamp()));
            }
        }
        if (offsets.isEmpty() && !refused.isEmpty()) {
            return CompletableFuture.completedFuture(toWire(refused));
        }
        return context.resume(groups.commitOffsets(new GroupCoordinator.CommitRequest(data.groupId(), data.memberId(),
                        data.groupInstanceId(), data.generationIdOrMemberEpoch(), data.retentionTimeMs(), offsets)))
                .thenApply(results -> {
                    Map<TopicPartition, KafkaError> all = new LinkedHashMap<>(results);
                    all.putAll(refused);
                    return toWire(all);
                });
    }

    private static OffsetCommitResponse toWire(Map<TopicPartition, KafkaError> results) {
        OffsetCommitResponseData data = new OffsetCommitResponseData().setTopics(ByTopic.group(results.entrySet(),
                r -> r.getKey().topic(),
                name -> new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(name),
                (topic, r) -> topic.partitions().add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                        .setPartitionIndex(r.getKey().partition())
                        .setErrorCode(ErrorMapping.toErrors(r.getValue()).code()))));
        return new OffsetCommitResponse(data);
    }
}
