package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.Map;

/**
 * What a {@link ClassicGroup} is asked to do, each with the type of its immediate response. JoinGroup
 * and SyncGroup are answered through {@link GroupReply replies} instead, which may come at once or
 * when a later command or timer completes the rebalance; their {@code requestId} names the waiting
 * request.
 *
 * @param <R> the immediate response type
 */
public sealed interface GroupCommand<R> {

    /**
     * A JoinGroup.
     *
     * @param memberId              "" for a member that has no id yet
     * @param groupInstanceId       the static member id (KIP-345), or null for a dynamic member
     * @param requireKnownMemberId  v4+: a new dynamic member is given an id and asked to rejoin with it (KIP-394)
     * @param supportSkipAssignment v9+: a static leader rejoining a stable group may skip the assignor
     * @param clientHost            the client's address, as DescribeGroups shows it
     * @param newMemberIdSuffix     unique text for the id a new member gets ({@code <client or instance id>-<suffix>})
     * @param reason                the client's reason (KIP-800), for the log; may be null
     */
    record Join(long requestId, String memberId, String groupInstanceId, boolean requireKnownMemberId,
                boolean supportSkipAssignment, String clientId, String clientHost, int rebalanceTimeoutMs,
                int sessionTimeoutMs, String protocolType, List<Protocol> protocols, String newMemberIdSuffix,
                String reason) implements GroupCommand<Void> {
        public Join {
            protocols = List.copyOf(protocols);
        }
    }

    /**
     * A SyncGroup; the leader's carries the assignment of every member.
     *
     * @param protocolType null when the request version does not carry it
     * @param protocolName null when the request version does not carry it
     */
    record Sync(long requestId, String memberId, String groupInstanceId, int generationId, String protocolType,
                String protocolName, Map<String, byte[]> assignments) implements GroupCommand<Void> {
        public Sync {
            assignments = Map.copyOf(assignments);
        }
    }

    /** A Heartbeat: keeps the member's session alive and learns whether to rejoin. */
    record Heartbeat(String memberId, String groupInstanceId, int generationId) implements GroupCommand<KafkaError> {
    }

    /** A LeaveGroup for one or more members (v3+ batches them; a static member may be named by instance id alone). */
    record Leave(List<LeavingMember> members) implements GroupCommand<LeaveResult> {
        public Leave {
            members = List.copyOf(members);
        }
    }

    /** One member in a LeaveGroup; {@code memberId} is "" when named by {@code groupInstanceId} only. */
    record LeavingMember(String memberId, String groupInstanceId, String reason) {
    }

    /**
     * May this OffsetCommit be stored? A generation of -1 and member "" means a committer outside
     * group management (an admin tool, a manual-assignment consumer).
     */
    record ValidateOffsetCommit(String memberId, String groupInstanceId, int generationId)
            implements GroupCommand<KafkaError> {
    }

    /**
     * May this TxnOffsetCommit be staged? As for OffsetCommit, but without the checks Apache skips
     * for transactional commits: old versions carry no member id or generation, so a committer
     * outside group management may stage into a non-empty group, and a generation that is still
     * completing its rebalance may stage too.
     */
    record ValidateTxnOffsetCommit(String memberId, String groupInstanceId, int generationId)
            implements GroupCommand<KafkaError> {
    }

    /** A timer the group scheduled came due. */
    record FireTimer(GroupTimer timer) implements GroupCommand<Void> {
    }

    /** DeleteGroups: only an empty group may be deleted (it becomes Dead). */
    record Delete() implements GroupCommand<KafkaError> {
    }

    /**
     * The offsets cleanup found the group with no offsets left: an empty group becomes Dead (true),
     * one with members carries on (false), as in Apache's {@code cleanupGroupMetadata}.
     */
    record DropIfEmpty() implements GroupCommand<Boolean> {
    }

    /**
     * A coordinator (re)started with the group's stored snapshot: the group resumes that stable
     * generation and every member's session starts now, so members that still heartbeat carry on
     * without a rebalance and the others expire, as on an Apache coordinator that loaded the group.
     */
    record Resume(GroupSnapshot snapshot) implements GroupCommand<Void> {
    }

    /**
     * This broker stops coordinating the group (shutdown, or the group moved): it becomes Dead and
     * every parked JoinGroup and SyncGroup is told NOT_COORDINATOR, so clients find the new coordinator.
     */
    record Unload() implements GroupCommand<Void> {
    }
}
