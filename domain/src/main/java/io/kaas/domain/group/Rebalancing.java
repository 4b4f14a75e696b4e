package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;

/** The steps every handler shares: starting and finishing the join phase, and members coming and going. */
final class Rebalancing {
    /**
     * A new member cannot heartbeat before its first JoinGroup returns, so its session is this long
     * instead; a client that disconnected mid-rebalance is then dropped rather than kept forever.
     */
    static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;
    private static final GroupTimer.JoinPhase REBALANCE_TIMEOUT = new GroupTimer.JoinPhase(false, 0, 0);

    private Rebalancing() {
    }

    /** The member showed a sign of life: its session starts over. */
    static void touchSession(Decision d, GroupMember member) {
        d.schedule(new GroupTimer.MemberSession(member.memberId()), member.sessionTimeoutMs());
    }

    /** Answers the member's parked JoinGroup, if it has one. */
    static void answerJoin(Decision d, GroupMember member, JoinResponse response) {
        if (member.isAwaitingJoin()) {
            long requestId = member.awaitingJoin();
            d.emit(new GroupEvent.JoinAnswered(member.memberId()));
            d.replyJoin(requestId, response);
        }
    }

    /** Answers the member's parked SyncGroup, if it has one; true if it had. */
    static boolean answerSync(Decision d, GroupMember member, SyncResponse response) {
        if (!member.isAwaitingSync()) {
            return false;
        }
        long requestId = member.awaitingSync();
        d.emit(new GroupEvent.SyncAnswered(member.memberId()));
        d.replySync(requestId, response);
        return true;
    }

    static void addMemberAndRebalance(Decision d, GroupCommand.Join join, String memberId, String reason) {
        d.emit(new GroupEvent.MemberAdded(memberId, join.groupInstanceId(), join.clientId(), join.clientHost(),
                join.rebalanceTimeoutMs(), join.sessionTimeoutMs(), join.protocolType(), join.protocols(),
                join.requestId()));
        d.schedule(new GroupTimer.MemberSession(memberId), NEW_MEMBER_JOIN_TIMEOUT_MS);
        maybePrepareRebalance(d, reason);
    }

    static void updateMemberAndRebalance(Decision d, GroupMember member, GroupCommand.Join join, String reason) {
        // A member re-sending JoinGroup has given up on its earlier one: answer it instead of stranding it.
        answerJoin(d, member, JoinResponse.failed(member.memberId(), KafkaError.REBALANCE_IN_PROGRESS));
        d.emit(new GroupEvent.MemberUpdated(member.memberId(), join.protocols(), join.rebalanceTimeoutMs(),
                join.sessionTimeoutMs(), join.requestId()));
        maybePrepareRebalance(d, reason);
    }

    static void maybePrepareRebalance(Decision d, String reason) {
        if (GroupState.PREPARING_REBALANCE.canFollow(d.group().state())) {
            prepareRebalance(d, reason);
        }
    }

    static void prepareRebalance(Decision d, String reason) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.COMPLETING_REBALANCE) {
            // The generation being assigned is abandoned: its parked syncs learn to rejoin.
            for (GroupMember m : group.members()) {
                if (answerSync(d, m, SyncResponse.failed(KafkaError.REBALANCE_IN_PROGRESS))) {
                    touchSession(d, m);
                }
            }
        }
        d.cancel(new GroupTimer.SyncPhase(group.generationId()));
        boolean initial = group.state() == GroupState.EMPTY;
        int rebalanceTimeoutMs = group.rebalanceTimeoutMs();
        d.emit(new GroupEvent.RebalancePrepared(group.generationId(), initial, reason));
        if (initial) {
            long delay = group.config().initialRebalanceDelayMs();
            d.schedule(new GroupTimer.JoinPhase(true, delay, Math.max(rebalanceTimeoutMs - delay, 0)), delay);
        } else {
            d.schedule(REBALANCE_TIMEOUT, rebalanceTimeoutMs);
            // Everyone may already be in (a lone member rejoining, the last member leaving).
            maybeCompleteJoin(d);
        }
    }

    /** Ends the join phase early once everyone has joined (never during the initial delay). */
    static void maybeCompleteJoin(Decision d) {
        ClassicGroup group = d.group();
        if (group.state() == GroupState.PREPARING_REBALANCE && !group.initialDelayPending() && group.allMembersJoined()) {
            d.cancel(REBALANCE_TIMEOUT);
            completeJoin(d);
        }
    }

    /**
     * Ends the join phase: dynamic members that did not rejoin are dropped, then a new generation
     * starts with every joined member (or the group is empty). Each parked JoinGroup is answered; the
     * leader's carries every member's metadata.
     */
    static void completeJoin(Decision d) {
        ClassicGroup group = d.group();
        for (GroupMember m : group.members()) {
            if (!m.isAwaitingJoin() && !m.isStatic()) {
                d.emit(new GroupEvent.MemberRemoved(m.memberId(), "did not rejoin before the rebalance timeout"));
                d.cancel(new GroupTimer.MemberSession(m.memberId()));
            }
        }
        if (group.state() == GroupState.DEAD) {
            return;
        }
        if (group.size() > 0 && !electJoinedLeader(d)) {
            // Only static members remain and none rejoined: wait for them (or their sessions) once more.
            d.emit(new GroupEvent.JoinPhaseRearmed());
            d.schedule(REBALANCE_TIMEOUT, group.rebalanceTimeoutMs());
            return;
        }
        int generation = group.generationId() + 1;
        if (group.size() == 0) {
            d.emit(new GroupEvent.GenerationStarted(generation, null, group.subscribedTopicsUnder(null), d.nowMs()));
            return;
        }
        String protocol = group.selectProtocol();
        d.emit(new GroupEvent.GenerationStarted(generation, protocol, group.subscribedTopicsUnder(protocol), d.nowMs()));
        List<JoinResponse.JoinedMember> everyone = group.joinedMembers();
        for (GroupMember m : group.members()) {
            boolean leader = group.isLeader(m.memberId());
            answerJoin(d, m, new JoinResponse(KafkaError.NONE, generation, group.protocolType(), protocol,
                    group.leaderId(), m.memberId(), false, leader ? everyone : List.of()));
            touchSession(d, m);
        }
        d.schedule(new GroupTimer.SyncPhase(generation), group.rebalanceTimeoutMs());
    }

    /** Keeps the leader if it rejoined, else hands leadership to a member that did; false if none did. */
    private static boolean electJoinedLeader(Decision d) {
        ClassicGroup group = d.group();
        String leader = group.leaderId();
        if (leader == null) {
            return false;
        }
        if (group.member(leader).isAwaitingJoin()) {
            return true;
        }
        for (GroupMember m : group.members()) {
            if (m.isAwaitingJoin()) {
                d.emit(new GroupEvent.LeaderElected(m.memberId()));
                return true;
            }
        }
        return false;
    }

    /**
     * Removes a member (left, fenced or expired). A parked request of its is answered
     * UNKNOWN_MEMBER_ID so the client rejoins if it is still alive; the others rebalance.
     */
    static void removeMember(Decision d, GroupMember member, String reason) {
        answerJoin(d, member, JoinResponse.failed("", KafkaError.UNKNOWN_MEMBER_ID));
        answerSync(d, member, SyncResponse.failed(KafkaError.UNKNOWN_MEMBER_ID));
        d.emit(new GroupEvent.MemberRemoved(member.memberId(), reason));
        d.cancel(new GroupTimer.MemberSession(member.memberId()));
        switch (d.group().state()) {
            case STABLE, COMPLETING_REBALANCE -> maybePrepareRebalance(d, reason);
            case PREPARING_REBALANCE -> maybeCompleteJoin(d);
            default -> {
                // an empty or dead group has nothing to rebalance
            }
        }
    }

    /** Forgets a member id handed out with MEMBER_ID_REQUIRED. */
    static void removePendingMember(Decision d, String memberId) {
        d.emit(new GroupEvent.PendingMemberRemoved(memberId));
        d.cancel(new GroupTimer.PendingMember(memberId));
        if (d.group().state() == GroupState.PREPARING_REBALANCE) {
            maybeCompleteJoin(d);
        }
    }
}
