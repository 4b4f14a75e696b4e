package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ListOffsetsUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;

/**
 * ListOffsets (key 2): earliest, latest, max-timestamp and by-timestamp lookups per partition; DESCRIBE on
 * the topic, else TOPIC_AUTHORIZATION_FAILED, as Apache.
 */
public final class ListOffsetsHandler implements ApiHandler<ListOffsetsRequest> {
    /** ListOffsets v4 added the leader epoch to the response (KIP-320). */
    private static final short FIRST_LEADER_EPOCH_VERSION = 4;

    private final ListOffsetsUseCase offsets;
    private final Access access;

    public ListOffsetsHandler(ListOffsetsUseCase offsets, Access access) {
        this.offsets = offsets;
        this.access = access;
    }

    @Override
    public CompletionStage<ListOffsetsResponse> handle(RequestContext context, ListOffsetsRequest request) {
        boolean readCommitted = request.isolationLevel() == IsolationLevel.READ_COMMITTED;
        Set<TopicPartition> duplicates = duplicates(request.data());
        ListOffsetsResponseData data = new ListOffsetsResponseData();
        List<CompletableFuture<Void>> lookups = new ArrayList<>();
        for (ListOffsetsRequestData.ListOffsetsTopic topic : request.data().topics()) {
            boolean described = access.topic(context, AclOperation.DESCRIBE, topic.name());
            ListOffsetsResponseData.ListOffsetsTopicResponse topicResponse =
                    new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(topic.name());
            for (ListOffsetsRequestData.ListOffsetsPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                ListOffsetsResponseData.ListOffsetsPartitionResponse partition =
                        new ListOffsetsResponseData.ListOffsetsPartitionResponse().setPartitionIndex(p.partitionIndex());
                if (!described) {
                    partition.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                } else if (duplicates.contains(tp)) {
                    partition.setErrorCode(Errors.INVALID_REQUEST.code());
                } else {
                    lookups.add(context.resume(offsets.listOffset(tp, p.timestamp(), readCommitted, p.currentLeaderEpoch()))
                            .thenAccept(r -> {
                                partition.setErrorCode(r.error().code()).setTimestamp(r.timestamp()).setOffset(r.offset());
                                if (request.version() >= FIRST_LEADER_EPOCH_VERSION) {
                                    // not ignorable: v1-3 cannot carry a non-default one
                                    partition.setLeaderEpoch(r.leaderEpoch());
                                }
                            }).toCompletableFuture());
                }
                topicResponse.partitions().add(partition);
            }
            data.topics().add(topicResponse);
        }
        return CompletableFuture.allOf(lookups.toArray(CompletableFuture[]::new)).thenApply(v -> new ListOffsetsResponse(data));
    }

    /** Partitions asked for more than once, which Apache answers with INVALID_REQUEST. */
    private static Set<TopicPartition> duplicates(ListOffsetsRequestData data) {
        Set<TopicPartition> seen = new HashSet<>();
        Set<TopicPartition> twice = new HashSet<>();
        for (ListOffsetsRequestData.ListOffsetsTopic topic : data.topics()) {
            for (ListOffsetsRequestData.ListOffsetsPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                if (!seen.add(tp)) {
                    twice.add(tp);
                }
            }
        }
        return twice;
    }
}
