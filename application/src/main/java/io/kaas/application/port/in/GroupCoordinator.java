package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.group.GroupOverview;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.LeaveResult;
import io.kaas.domain.group.Protocol;
import io.kaas.domain.group.SyncResponse;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The consumer-group coordinator: classic group membership (JoinGroup, SyncGroup, Heartbeat,
 * LeaveGroup), committed offsets, and the admin surface over both. A request for a group this
 * broker does not coordinate is answered NOT_COORDINATOR.
 *
 * <p>Every stage may complete later and on another thread: JoinGroup and SyncGroup wait for the
 * rest of the group, and OffsetCommit for its write to be durable. Nothing blocks the caller.
 */
public interface GroupCoordinator {

    /** Completes when the member is in a new generation, or at once with an error or MEMBER_ID_REQUIRED. */
    CompletionStage<JoinResponse> joinGroup(JoinRequest request);

    /** Completes with the member's assignment once the leader has sent it. */
    CompletionStage<SyncResponse> syncGroup(SyncRequest request);

    CompletionStage<KafkaError> heartbeat(String groupId, String memberId, String groupInstanceId, int generationId);

    CompletionStage<LeaveResult> leaveGroup(String groupId, List<GroupCommand.LeavingMember> members);

    /** One error per requested partition, in request order; NONE only once the offsets are durable. */
    CompletionStage<Map<TopicPartition, KafkaError>> commitOffsets(CommitRequest request);

    /**
     * TxnOffsetCommit: stages offsets under the producer's transaction, after its coordinator
     * confirmed the group is part of it; they become visible when the transaction commits and vanish
     * if it aborts. One error per requested partition, in request order; NONE once they are durable.
     */
    CompletionStage<Map<TopicPartition, KafkaError>> commitTransactionalOffsets(TxnCommitRequest request);

    /**
     * The group's committed offsets.
     *
     * @param partitions    the partitions to read, or null for every partition with a committed offset
     * @param requireStable answer UNSTABLE_OFFSET_COMMIT for partitions with a commit still being written
     */
    CompletionStage<OffsetFetchResult> fetchOffsets(String groupId, List<TopicPartition> partitions,
                                                    boolean requireStable);

    /** Groups this broker coordinates, including those known only from their stored offsets. */
    CompletionStage<ListGroupsResult> listGroups(Set<String> statesFilter);

    /** One description per requested group, in request order; an unknown group is Dead. */
    CompletionStage<List<GroupDescription>> describeGroups(List<String> groupIds);

    /** Deletes empty groups and their offsets; one error per group. */
    CompletionStage<Map<String, KafkaError>> deleteGroups(List<String> groupIds);

    /** Deletes some of a group's committed offsets; a group actively consuming a topic keeps those. */
    CompletionStage<OffsetDeleteResult> deleteOffsets(String groupId, List<TopicPartition> partitions);

    /**
     * A JoinGroup.
     *
     * @param requireKnownMemberId  KIP-394 (JoinGroup v4+, dynamic members)
     * @param supportSkipAssignment JoinGroup v9+
     * @param clientHost            the client's address, as DescribeGroups reports it
     * @param reason                the client's reason (KIP-800), may be null
     */
    record JoinRequest(String groupId, String memberId, String groupInstanceId, boolean requireKnownMemberId,
                       boolean supportSkipAssignment, String clientId, String clientHost, int rebalanceTimeoutMs,
                       int sessionTimeoutMs, String protocolType, List<Protocol> protocols, String reason) {
    }

    /** A SyncGroup; {@code protocolType} and {@code protocolName} are null when the version lacks them. */
    record SyncRequest(String groupId, String memberId, String groupInstanceId, int generationId, String protocolType,
                       String protocolName, Map<String, byte[]> assignments) {
    }

    /**
     * An OffsetCommit; generation -1 and member "" for committers outside group management;
     * {@code retentionTimeMs} (v2-4) -1 for the broker's offsets retention.
     */
    record CommitRequest(String groupId, String memberId, String groupInstanceId, int generationId,
                         long retentionTimeMs, List<OffsetCommit> offsets) {
    }

    /**
     * A TxnOffsetCommit; v0-2 carry no member: generation -1, member "" and no instance id.
     */
    record TxnCommitRequest(String transactionalId, String groupId, long producerId, short producerEpoch,
                            String memberId, String groupInstanceId, int generationId, List<OffsetCommit> offsets) {
    }

    /**
     * One partition's commit; {@code metadata} null means none; {@code commitTimestampMs} is the
     * committer's own time (OffsetCommit v1), -1 for the broker's.
     */
    record OffsetCommit(TopicPartition partition, long offset, int leaderEpoch, String metadata,
                        long commitTimestampMs) {
        /** A commit timed by the broker. */
        public OffsetCommit(TopicPartition partition, long offset, int leaderEpoch, String metadata) {
            this(partition, offset, leaderEpoch, metadata, -1L);
        }
    }

    /** A group's offsets, or a group-level error. */
    record OffsetFetchResult(KafkaError error, List<PartitionOffset> partitions) {
        public static OffsetFetchResult failed(KafkaError error) {
            return new OffsetFetchResult(error, List.of());
        }
    }

    /** A partition without a committed offset has offset -1 and metadata "". */
    record PartitionOffset(TopicPartition partition, long offset, int leaderEpoch, String metadata, KafkaError error) {
    }

    record ListGroupsResult(KafkaError error, List<GroupOverview> groups) {
    }

    /** A group-level error, else one error per requested partition. */
    record OffsetDeleteResult(KafkaError error, Map<TopicPartition, KafkaError> partitions) {
        public static OffsetDeleteResult failed(KafkaError error) {
            return new OffsetDeleteResult(error, Map.of());
        }
    }
}
