package io.kaas.domain.group;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A change to a {@link ClassicGroup}. Events are the only way a group changes: handling a command
 * emits them, and {@link ClassicGroup#apply} replays them, so a group rebuilt from its events is
 * the same group.
 */
public sealed interface GroupEvent {

    /** A member entered the group with its JoinGroup parked under {@code joinRequestId}. */
    record MemberAdded(String memberId, String groupInstanceId, String clientId, String clientHost,
                       int rebalanceTimeoutMs, int sessionTimeoutMs, String protocolType, List<Protocol> protocols,
                       long joinRequestId) implements GroupEvent {
        public MemberAdded {
            protocols = List.copyOf(protocols);
        }
    }

    /** A member rejoined, possibly with new protocols or timeouts, its JoinGroup parked under {@code joinRequestId}. */
    record MemberUpdated(String memberId, List<Protocol> protocols, int rebalanceTimeoutMs, int sessionTimeoutMs,
                         long joinRequestId) implements GroupEvent {
        public MemberUpdated {
            protocols = List.copyOf(protocols);
        }
    }

    /** A member left, was fenced out or expired. */
    record MemberRemoved(String memberId, String reason) implements GroupEvent {
    }

    /** A new dynamic member was given an id and must rejoin with it (KIP-394). */
    record PendingMemberAdded(String memberId) implements GroupEvent {
    }

    /** A pending member id expired or left before rejoining. */
    record PendingMemberRemoved(String memberId) implements GroupEvent {
    }

    /** A static member restarted: its instance id now belongs to a new member id; the old one is fenced. */
    record StaticMemberReplaced(String groupInstanceId, String oldMemberId, String newMemberId) implements GroupEvent {
    }

    /** The member's parked JoinGroup was answered. */
    record JoinAnswered(String memberId) implements GroupEvent {
    }

    /** The member's SyncGroup was parked under {@code syncRequestId} until the leader's assignment arrives. */
    record SyncParked(String memberId, long syncRequestId) implements GroupEvent {
    }

    /** The member's parked SyncGroup was answered. */
    record SyncAnswered(String memberId) implements GroupEvent {
    }

    /** The member sent its SyncGroup for the current generation. */
    record PendingSyncRemoved(String memberId) implements GroupEvent {
    }

    /**
     * A rebalance began: the group collects JoinGroups. Assignments of a generation still being
     * completed are dropped.
     *
     * @param fromGeneration the generation being left behind
     * @param initialDelay   the first rebalance of an empty group, which waits out the initial delay
     */
    record RebalancePrepared(int fromGeneration, boolean initialDelay, String reason) implements GroupEvent {
    }

    /** Another member arrived during the initial delay; the delay was extended once more. */
    record InitialDelayExtended() implements GroupEvent {
    }

    /** No member rejoined in time; the join phase waits another rebalance timeout. */
    record JoinPhaseRearmed() implements GroupEvent {
    }

    /** The previous leader did not rejoin; another joined member leads. */
    record LeaderElected(String memberId) implements GroupEvent {
    }

    /**
     * The join phase ended: a new generation, awaiting its assignment if it has members, else the
     * group is empty.
     *
     * @param protocolName     the selected protocol, null without members
     * @param subscribedTopics the topics a consumer group's members subscribe to, null if unknown
     * @param atMs             when: an empty group's offsets expire counting from here
     */
    record GenerationStarted(int generationId, String protocolName, Set<String> subscribedTopics, long atMs)
            implements GroupEvent {
    }

    /** The leader's assignment arrived: the group is stable. Members it omitted get an empty assignment. */
    record AssignmentApplied(Map<String, byte[]> assignments) implements GroupEvent {
        public AssignmentApplied {
            assignments = Map.copyOf(assignments);
        }
    }

    /** The group was deleted or unloaded. */
    record GroupDied(String reason) implements GroupEvent {
    }

    /** The group was loaded from its stored snapshot: stable in that generation, with those members. */
    record Resumed(GroupSnapshot snapshot) implements GroupEvent {
    }
}
