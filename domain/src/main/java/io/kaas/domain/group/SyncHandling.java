package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;

/** SyncGroup: followers wait for the leader's assignment, which makes the group stable. */
final class SyncHandling {
    private SyncHandling() {
    }

    static void handle(Decision d, GroupCommand.Sync sync) {
        ClassicGroup group = d.group();
        KafkaError invalid = validate(group, sync);
        if (invalid != KafkaError.NONE) {
            d.replySync(sync.requestId(), SyncResponse.failed(invalid));
            return;
        }
        GroupMember member = group.member(sync.memberId());
        switch (group.state()) {
            case EMPTY -> d.replySync(sync.requestId(), SyncResponse.failed(KafkaError.UNKNOWN_MEMBER_ID));
            case PREPARING_REBALANCE -> d.replySync(sync.requestId(), SyncResponse.failed(KafkaError.REBALANCE_IN_PROGRESS));
            case COMPLETING_REBALANCE -> {
                Rebalancing.answerSync(d, member, SyncResponse.failed(KafkaError.REBALANCE_IN_PROGRESS));
                d.emit(new GroupEvent.SyncParked(member.memberId(), sync.requestId()));
                markSynced(d, member.memberId());
                if (group.isLeader(member.memberId())) {
                    applyAssignment(d, sync);
                }
            }
            case STABLE -> {
                markSynced(d, member.memberId());
                d.replySync(sync.requestId(), new SyncResponse(KafkaError.NONE, group.protocolType(),
                        group.protocolName(), member.assignment()));
                Rebalancing.touchSession(d, member);
            }
            default -> throw new IllegalStateException("sync in " + group.state());
        }
    }

    private static KafkaError validate(ClassicGroup group, GroupCommand.Sync sync) {
        if (group.state() == GroupState.DEAD) {
            return KafkaError.COORDINATOR_NOT_AVAILABLE;
        }
        KafkaError invalid = group.validateMember(sync.memberId(), sync.groupInstanceId());
        if (invalid != KafkaError.NONE) {
            return invalid;
        }
        if (sync.generationId() != group.generationId()) {
            return KafkaError.ILLEGAL_GENERATION;
        }
        if (sync.protocolType() != null && !sync.protocolType().equals(group.protocolType())
                || sync.protocolName() != null && !sync.protocolName().equals(group.protocolName())) {
            return KafkaError.INCONSISTENT_GROUP_PROTOCOL;
        }
        return KafkaError.NONE;
    }

    private static void markSynced(Decision d, String memberId) {
        ClassicGroup group = d.group();
        if (group.pendingSyncMembers().contains(memberId)) {
            d.emit(new GroupEvent.PendingSyncRemoved(memberId));
            if (group.pendingSyncMembers().isEmpty()) {
                d.cancel(new GroupTimer.SyncPhase(group.generationId()));
            }
        }
    }

    /** The leader's assignment: every parked SyncGroup gets its member's share and the group is stable. */
    private static void applyAssignment(Decision d, GroupCommand.Sync sync) {
        ClassicGroup group = d.group();
        d.emit(new GroupEvent.AssignmentApplied(sync.assignments()));
        for (GroupMember m : group.members()) {
            SyncResponse share = new SyncResponse(KafkaError.NONE, group.protocolType(), group.protocolName(),
                    m.assignment());
            if (Rebalancing.answerSync(d, m, share)) {
                // Sessions that expired while waiting for the leader were ignored: restart them now.
                Rebalancing.touchSession(d, m);
            }
        }
    }
}
