package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;

/** Heartbeat, LeaveGroup and the membership checks of OffsetCommit and TxnOffsetCommit. */
final class MemberHandling {
    private MemberHandling() {
    }

    static KafkaError heartbeat(Decision d, GroupCommand.Heartbeat heartbeat) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.DEAD) {
            return KafkaError.COORDINATOR_NOT_AVAILABLE;
        }
        KafkaError invalid = group.validateMember(heartbeat.memberId(), heartbeat.groupInstanceId());
        if (invalid != KafkaError.NONE) {
            return invalid;
        }
        if (heartbeat.generationId() != group.generationId()) {
            return KafkaError.ILLEGAL_GENERATION;
        }
        if (group.state() == GroupState.EMPTY) {
            return KafkaError.UNKNOWN_MEMBER_ID;
        }
        Rebalancing.touchSession(d, group.member(heartbeat.memberId()));
        return group.state() == GroupState.PREPARING_REBALANCE ? KafkaError.REBALANCE_IN_PROGRESS : KafkaError.NONE;
    }

    static LeaveResult leave(Decision d, GroupCommand.Leave leave) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.DEAD) {
            return new LeaveResult(KafkaError.COORDINATOR_NOT_AVAILABLE, List.of());
        }
        List<LeaveResult.MemberResult> results = new ArrayList<>();
        for (GroupCommand.LeavingMember leaving : leave.members()) {
            results.add(new LeaveResult.MemberResult(leaving.memberId(), leaving.groupInstanceId(), leaveOne(d, leaving)));
        }
        return new LeaveResult(KafkaError.NONE, results);
    }

    private static KafkaError leaveOne(Decision d, GroupCommand.LeavingMember leaving) {
        ClassicGroup group = d.group();
        String reason = "left the group" + (leaving.reason() == null || leaving.reason().isEmpty() ? ""
                : " (client reason: " + leaving.reason() + ")");
        if (leaving.memberId().isEmpty()) {
            // An administrator removing a static member by its instance id alone.
            String memberId = group.staticMemberId(leaving.groupInstanceId());
            if (memberId == null) {
                return KafkaError.UNKNOWN_MEMBER_ID;
            }
            Rebalancing.removeMember(d, group.member(memberId), reason);
            return KafkaError.NONE;
        }
        if (group.isPendingMember(leaving.memberId())) {
            Rebalancing.removePendingMember(d, leaving.memberId());
            return KafkaError.NONE;
        }
        KafkaError invalid = group.validateMember(leaving.memberId(), leaving.groupInstanceId());
        if (invalid == KafkaError.NONE) {
            Rebalancing.removeMember(d, group.member(leaving.memberId()), reason);
        }
        return invalid;
    }

    /**
     * Whether an OffsetCommit may be stored. Committers outside group management (generation -1,
     * no member id) may commit only to an empty group; members must be current and of the current
     * generation, and must wait while the generation's assignment is being computed.
     */
    static KafkaError validateOffsetCommit(Decision d, GroupCommand.ValidateOffsetCommit commit) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.DEAD) {
            return KafkaError.COORDINATOR_NOT_AVAILABLE;
        }
        if (commit.generationId() < 0 && group.state() == GroupState.EMPTY) {
            return KafkaError.NONE;
        }
        if (commit.generationId() >= 0 || !commit.memberId().isEmpty() || commit.groupInstanceId() != null) {
            KafkaError invalid = group.validateMember(commit.memberId(), commit.groupInstanceId());
            if (invalid != KafkaError.NONE) {
                return invalid;
            }
            if (commit.generationId() != group.generationId()) {
                return KafkaError.ILLEGAL_GENERATION;
            }
        } else if (group.state() != GroupState.EMPTY) {
            return KafkaError.UNKNOWN_MEMBER_ID;
        }
        switch (group.state()) {
            case STABLE, PREPARING_REBALANCE -> {
                // A commit is a sign of life; during a rebalance the next heartbeat says "rejoin".
                Rebalancing.touchSession(d, group.member(commit.memberId()));
                return KafkaError.NONE;
            }
            case COMPLETING_REBALANCE -> {
                return KafkaError.REBALANCE_IN_PROGRESS;
            }
            default -> {
                return KafkaError.NONE;
            }
        }
    }

    /**
     * Whether a TxnOffsetCommit may be staged (Apache's {@code validateOffsetCommit} with
     * {@code isTransactional}): a member naming itself must be current and of the current
     * generation; an anonymous committer (generation -1, no member id) is accepted in any state.
     * Staging is no sign of life: sessions are not touched.
     */
    static KafkaError validateTxnOffsetCommit(Decision d, GroupCommand.ValidateTxnOffsetCommit commit) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.DEAD) {
            return KafkaError.COORDINATOR_NOT_AVAILABLE;
        }
        if (commit.generationId() < 0 && commit.memberId().isEmpty() && commit.groupInstanceId() == null) {
            return KafkaError.NONE;
        }
        if (commit.generationId() < 0 && group.state() == GroupState.EMPTY) {
            return KafkaError.NONE;
        }
        KafkaError invalid = group.validateMember(commit.memberId(), commit.groupInstanceId());
        if (invalid != KafkaError.NONE) {
            return invalid;
        }
        return commit.generationId() == group.generationId() ? KafkaError.NONE : KafkaError.ILLEGAL_GENERATION;
    }
}
