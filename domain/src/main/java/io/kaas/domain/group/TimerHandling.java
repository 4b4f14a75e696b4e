package io.kaas.domain.group;

/** What each timer does when it comes due; a timer that no longer applies does nothing. */
final class TimerHandling {
    private TimerHandling() {
    }

    static void fire(Decision d, GroupTimer timer) {
        if (d.group().state() == GroupState.DEAD) {
            return;
        }
        if (timer instanceof GroupTimer.MemberSession session) {
            sessionExpired(d, session.memberId());
        } else if (timer instanceof GroupTimer.PendingMember pending) {
            if (d.group().isPendingMember(pending.memberId())) {
                Rebalancing.removePendingMember(d, pending.memberId());
            }
        } else if (timer instanceof GroupTimer.JoinPhase join) {
            joinPhaseEnded(d, join);
        } else if (timer instanceof GroupTimer.SyncPhase sync) {
            syncPhaseEnded(d, sync);
        }
    }

    /**
     * No sign of life within the session. A member with a parked JoinGroup or SyncGroup is waiting
     * on the group, not dead — unless it is new, whose parked join has its own, longer timeout.
     */
    private static void sessionExpired(Decision d, String memberId) {
        d.group().findMember(memberId).ifPresent(member -> {
            if (member.isNew() || !(member.isAwaitingJoin() || member.isAwaitingSync())) {
                Rebalancing.removeMember(d, member, "session timeout expired");
            }
        });
    }

    private static void joinPhaseEnded(Decision d, GroupTimer.JoinPhase join) {
        ClassicGroup group = d.group();
        if (group.state() != GroupState.PREPARING_REBALANCE) {
            return;
        }
        if (join.initial() && group.newMemberAdded() && join.remainingMs() != 0) {
            // Members are still arriving: wait another delay, within what is left of the rebalance timeout.
            d.emit(new GroupEvent.InitialDelayExtended());
            long delay = Math.min(group.config().initialRebalanceDelayMs(), join.remainingMs());
            long remaining = Math.max(join.remainingMs() - join.delayMs(), 0);
            d.schedule(new GroupTimer.JoinPhase(true, delay, remaining), delay);
            return;
        }
        Rebalancing.completeJoin(d);
    }

    /** Members of the generation that never sent SyncGroup are dropped, and the rest rebalance. */
    private static void syncPhaseEnded(Decision d, GroupTimer.SyncPhase sync) {
        ClassicGroup group = d.group();
        boolean assigning = group.state() == GroupState.COMPLETING_REBALANCE || group.state() == GroupState.STABLE;
        if (sync.generationId() != group.generationId() || !assigning || group.pendingSyncMembers().isEmpty()) {
            return;
        }
        for (String memberId : group.pendingSyncMembers()) {
            d.emit(new GroupEvent.MemberRemoved(memberId, "did not send SyncGroup before the rebalance timeout"));
            d.cancel(new GroupTimer.MemberSession(memberId));
        }
        Rebalancing.prepareRebalance(d, "members did not sync in time");
    }
}
