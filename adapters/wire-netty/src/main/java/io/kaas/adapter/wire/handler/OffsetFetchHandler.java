package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;

/**
 * OffsetFetch (key 9), v0-9. v0 reads the group's file like the others (Apache's v0 read
 * ZooKeeper); v2+ may ask for every committed partition (null topics); v7+ require_stable answers
 * UNSTABLE_OFFSET_COMMIT while a commit is being written; v8+ batch groups, each answered on its
 * own; v9's member id and epoch belong to KIP-848 groups, which do not exist here, and are ignored.
 */
public final class OffsetFetchHandler implements ApiHandler<OffsetFetchRequest> {
    private final GroupCoordinator groups;

    public OffsetFetchHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<OffsetFetchResponse> handle(RequestContext context, OffsetFetchRequest request) {
        List<CompletableFuture<OffsetFetchResponseData.OffsetFetchResponseGroup>> answers = new ArrayList<>();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup group : request.groups()) {
            answers.add(context.resume(groups.fetchOffsets(group.groupId(), partitions(group), request.requireStable()))
                    .thenApply(result -> toWire(group.groupId(), result)).toCompletableFuture());
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> new OffsetFetchResponse(
                answers.stream().map(CompletableFuture::join).toList(), request.version()));
    }

    /** The requested partitions, or null for "every committed partition". */
    private static List<TopicPartition> partitions(OffsetFetchRequestData.OffsetFetchRequestGroup group) {
        if (group.topics() == null) {
            return null;
        }
        List<TopicPartition> partitions = new ArrayList<>();
        group.topics().forEach(t -> t.partitionIndexes().forEach(p -> partitions.add(new TopicPartition(t.name(), p))));
        return partitions;
    }

    private static OffsetFetchResponseData.OffsetFetchResponseGroup toWire(String groupId,
                                                                          GroupCoordinator.OffsetFetchResult result) {
        return new OffsetFetchResponseData.OffsetFetchResponseGroup()
                .setGroupId(groupId)
                .setErrorCode(ErrorMapping.toErrors(result.error()).code())
                .setTopics(ByTopic.group(result.partitions(), p -> p.partition().topic(),
                        name -> new OffsetFetchResponseData.OffsetFetchResponseTopics().setName(name),
                        (topic, p) -> topic.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartitions()
                                .setPartitionIndex(p.partition().partition())
                                .setCommittedOffset(p.offset())
                                .setCommittedLeaderEpoch(p.leaderEpoch())
                                .setMetadata(p.metadata())
                                .setErrorCode(ErrorMapping.toErrors(p.error()).code()))));
    }
}
