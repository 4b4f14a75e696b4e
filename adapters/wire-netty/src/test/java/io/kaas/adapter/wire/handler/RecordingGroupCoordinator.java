package io.kaas.adapter.wire.handler;

import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.group.GroupOverview;
import io.kaas.domain.group.GroupState;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.LeaveResult;
import io.kaas.domain.group.SyncResponse;
import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Records what the handlers ask and answers with full responses, so every field gets encoded. */
final class RecordingGroupCoordinator implements GroupCoordinator {
    JoinRequest join;
    SyncRequest sync;
    List<GroupCommand.LeavingMember> leaving;
    CommitRequest commit;
    TxnCommitRequest txnCommit;
    List<TopicPartition> fetched;
    boolean requireStable;
    Set<String> statesFilter;
    KafkaError leaveError = KafkaError.NONE;

    @Override
    public CompletionStage<JoinResponse> joinGroup(JoinRequest request) {
        join = request;
        return CompletableFuture.completedFuture(new JoinResponse(KafkaError.NONE, 3, "consumer", "range", "m-1", "m-1",
                request.supportSkipAssignment(), List.of(new JoinResponse.JoinedMember("m-1", request.groupInstanceId(),
                new byte[] {1, 2}))));
    }

    @Override
    public CompletionStage<SyncResponse> syncGroup(SyncRequest request) {
        sync = request;
        return CompletableFuture.completedFuture(new SyncResponse(KafkaError.NONE, "consumer", "range", new byte[] {9}));
    }

    @Override
    public CompletionStage<KafkaError> heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        return CompletableFuture.completedFuture(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Override
    public CompletionStage<LeaveResult> leaveGroup(String groupId, List<GroupCommand.LeavingMember> members) {
        leaving = members;
        return CompletableFuture.completedFuture(new LeaveResult(KafkaError.NONE, members.stream()
                .map(m -> new LeaveResult.MemberResult(m.memberId(), m.groupInstanceId(), leaveError)).toList()));
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> commitOffsets(CommitRequest request) {
        commit = request;
        Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
        request.offsets().forEach(o -> results.put(o.partition(), KafkaError.NONE));
        return CompletableFuture.completedFuture(results);
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> commitTransactionalOffsets(TxnCommitRequest request) {
        txnCommit = request;
        Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
        request.offsets().forEach(o -> results.put(o.partition(), KafkaError.NONE));
        return CompletableFuture.completedFuture(results);
    }

    @Override
    public CompletionStage<OffsetFetchResult> fetchOffsets(String groupId, List<TopicPartition> partitions,
                                                           boolean stable) {
        fetched = partitions;
        requireStable = stable;
        if (groupId.equals("elsewhere")) {
            return CompletableFuture.completedFuture(OffsetFetchResult.failed(KafkaError.NOT_COORDINATOR));
        }
        List<TopicPartition> answered = partitions == null ? List.of(new TopicPartition("t", 0)) : partitions;
        return CompletableFuture.completedFuture(new OffsetFetchResult(KafkaError.NONE, answered.stream()
                .map(tp -> new PartitionOffset(tp, 42, 5, "meta", KafkaError.NONE)).toList()));
    }

    @Override
    public CompletionStage<ListGroupsResult> listGroups(Set<String> filter) {
        statesFilter = filter;
        return CompletableFuture.completedFuture(new ListGroupsResult(KafkaError.NONE,
                List.of(new GroupOverview("g", "consumer", GroupState.STABLE))));
    }

    @Override
    public CompletionStage<List<GroupDescription>> describeGroups(List<String> groupIds) {
        return CompletableFuture.completedFuture(groupIds.stream().map(id -> id.equals("elsewhere")
                ? GroupDescription.failed(id, KafkaError.NOT_COORDINATOR)
                : new GroupDescription(id, KafkaError.NONE, GroupState.STABLE, "consumer", "range", List.of(
                        new GroupDescription.MemberDescription("m-1", "i-1", "client", "/127.0.0.1", new byte[] {1},
                                new byte[] {2})))).toList());
    }

    @Override
    public CompletionStage<Map<String, KafkaError>> deleteGroups(List<String> groupIds) {
        Map<String, KafkaError> results = new LinkedHashMap<>();
        groupIds.forEach(id -> results.put(id, KafkaError.NON_EMPTY_GROUP));
        return CompletableFuture.completedFuture(results);
    }

    @Override
    public CompletionStage<OffsetDeleteResult> deleteOffsets(String groupId, List<TopicPartition> partitions) {
        if (groupId.equals("unknown")) {
            return CompletableFuture.completedFuture(OffsetDeleteResult.failed(KafkaError.GROUP_ID_NOT_FOUND));
        }
        Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
        partitions.forEach(tp -> results.put(tp, KafkaError.GROUP_SUBSCRIBED_TO_TOPIC));
        return CompletableFuture.completedFuture(new OffsetDeleteResult(KafkaError.NONE, results));
    }
}
