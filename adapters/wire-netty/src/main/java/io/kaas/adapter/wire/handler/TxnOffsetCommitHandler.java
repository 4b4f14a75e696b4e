package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
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
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;

/**
 * TxnOffsetCommit (key 28), v0-3: a transactional producer's consumed offsets, staged in the group
 * until the transaction ends (KIP-98), with the member and generation checks of v3 (KIP-447).
 * v0-1 clients get COORDINATOR_NOT_AVAILABLE where newer ones get COORDINATOR_LOAD_IN_PROGRESS, as
 * from Apache (KAFKA-7296).
 */
public final class TxnOffsetCommitHandler implements ApiHandler<TxnOffsetCommitRequest> {
    /** v2 clients handle COORDINATOR_LOAD_IN_PROGRESS. */
    private static final short FIRST_LOAD_IN_PROGRESS_VERSION = 2;

    private final GroupCoordinator groups;
    private final Access access;

    public TxnOffsetCommitHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<TxnOffsetCommitResponse> handle(RequestContext context, TxnOffsetCommitRequest request) {
        TxnOffsetCommitRequestData data = request.data();
        if (!access.transactionalId(context, AclOperation.WRITE, data.transactionalId())) {
            return Refused.with(request, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!access.group(context, AclOperation.READ, data.groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        List<GroupCoordinator.OffsetCommit> offsets = new ArrayList<>();
        Map<TopicPartition, KafkaError> refused = new LinkedHashMap<>();
        for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic topic : data.topics()) {
            if (!access.topic(context, AclOperation.READ, topic.name())) {
                topic.partitions().forEach(p -> refused.put(new TopicPartition(topic.name(), p.partitionIndex()),
                        KafkaError.TOPIC_AUTHORIZATION_FAILED));
                continue;
            }
            for (TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition p : topic.partitions()) {
                offsets.add(new GroupCoordinator.OffsetCommit(new TopicPartition(topic.name(), p.partitionIndex()),
                        p.committedOffset(), p.committedLeaderEpoch(), p.committedMetadata()));
            }
        }
        if (offsets.isEmpty() && !refused.isEmpty()) {
            return CompletableFuture.completedFuture(toWire(refused, request.version()));
        }
        return context.resume(groups.commitTransactionalOffsets(new GroupCoordinator.TxnCommitRequest(data.transactionalId(),
                        data.groupId(), data.producerId(), data.producerEpoch(), data.memberId(), data.groupInstanceId(),
                        data.generationId(), offsets)))
                .thenApply(results -> {
                    Map<TopicPartition, KafkaError> all = new LinkedHashMap<>(results);
                    all.putAll(refused);
                    return toWire(all, request.version());
                });
    }

    private static TxnOffsetCommitResponse toWire(Map<TopicPartition, KafkaError> results, short version) {
        TxnOffsetCommitResponseData data = new TxnOffsetCommitResponseData();
        Map<String, TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic> topics = new LinkedHashMap<>();
        results.forEach((tp, error) -> {
            KafkaError sent = error == KafkaError.COORDINATOR_LOAD_IN_PROGRESS && version < FIRST_LOAD_IN_PROGRESS_VERSION
                    ? KafkaError.COORDINATOR_NOT_AVAILABLE : error;
            topics.computeIfAbsent(tp.topic(), name -> {
                TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic t =
                        new TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic().setName(name);
                data.topics().add(t);
                return t;
            }).partitions().add(new TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition()
                    .setPartitionIndex(tp.partition()).setErrorCode(sent.code()));
        });
        return new TxnOffsetCommitResponse(data);
    }
}
