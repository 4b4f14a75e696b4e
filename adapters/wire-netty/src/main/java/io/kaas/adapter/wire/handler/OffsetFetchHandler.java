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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
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
    private final Access access;

    public OffsetFetchHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<OffsetFetchResponse> handle(RequestContext context, OffsetFetchRequest request) {
        List<CompletableFuture<OffsetFetchResponseData.OffsetFetchResponseGroup>> answers = new ArrayList<>();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup group : request.groups()) {
            answers.add(fetch(context, group, request.requireStable()).toCompletableFuture());
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> new OffsetFetchResponse(
                answers.stream().map(CompletableFuture::join).toList(), request.version()));
    }

    /**
     * One group's offsets, as Apache: DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED; of the partitions
     * asked for, those of topics the principal may not describe answer TOPIC_AUTHORIZATION_FAILED; asked for
     * every partition, such topics are left out.
     */
    private CompletionStage<OffsetFetchResponseData.OffsetFetchResponseGroup> fetch(
            RequestContext context, OffsetFetchRequestData.OffsetFetchRequestGroup group, boolean requireStable) {
        String groupId = group.groupId();
        if (!access.group(context, AclOperation.DESCRIBE, groupId)) {
            return CompletableFuture.completedFuture(new OffsetFetchResponseData.OffsetFetchResponseGroup()
                    .setGroupId(groupId).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
        }
        List<TopicPartition> requested = partitions(group);
        List<GroupCoordinator.PartitionOffset> refused = new ArrayList<>();
        if (requested != null && access.enabled()) {
            Set<String> denied = access.deniedTopics(context, AclOperation.DESCRIBE,
                    requested.stream().map(TopicPartition::topic).toList());
            requested.stream().filter(tp -> denied.contains(tp.topic())).forEach(tp -> refused.add(
                    new GroupCoordinator.PartitionOffset(tp, -1L, -1, "", KafkaError.TOPIC_AUTHORIZATION_FAILED)));
            requested = requested.stream().filter(tp -> !denied.contains(tp.topic())).toList();
        }
        return context.resume(groups.fetchOffsets(groupId, requested, requireStable)).thenApply(result -> {
            List<GroupCoordinator.PartitionOffset> partitions = new ArrayList<>();
            result.partitions().stream().filter(p -> access.topic(context, AclOperation.DESCRIBE, p.partition().topic()))
                    .forEach(partitions::add);
            partitions.addAll(refused);
            return toWire(groupId, new GroupCoordinator.OffsetFetchResult(result.error(), partitions));
        });
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
