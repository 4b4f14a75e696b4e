package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;

/** Deleting a group and handing it over. */
final class LifecycleHandling {
    private LifecycleHandling() {
    }

    static KafkaError delete(Decision d) {
        return switch (d.group().state()) {
            case DEAD -> KafkaError.GROUP_ID_NOT_FOUND;
            case EMPTY -> {
                die(d, "deleted");
                yield KafkaError.NONE;
            }
            default -> KafkaError.NON_EMPTY_GROUP;
        };
    }

    static boolean dropIfEmpty(Decision d) {
        if (d.group().state() != GroupState.EMPTY) {
            return false;
        }
        die(d, "has no members and no offsets left");
        return true;
    }

    static void resume(Decision d, GroupSnapshot snapshot) {
        d.emit(new GroupEvent.Resumed(snapshot));
        for (GroupSnapshot.Member m : snapshot.members()) {
            d.schedule(new GroupTimer.MemberSession(m.memberId()), m.sessionTimeoutMs());
        }
    }

    static void unload(Decision d) {
        ClassicGroup group = d.group();
        GroupState before = group.state();
        if (before == GroupState.DEAD) {
            return;
        }
        for (GroupMember m : group.members()) {
            if (before == GroupState.PREPARING_REBALANCE) {
                Rebalancing.answerJoin(d, m, JoinResponse.failed(m.memberId(), KafkaError.NOT_COORDINATOR));
            } else {
                Rebalancing.answerSync(d, m, SyncResponse.failed(KafkaError.NOT_COORDINATOR));
            }
        }
        die(d, "unloaded");
    }

    private static void die(Decision d, String reason) {
        ClassicGroup group = d.group();
        d.emit(new GroupEvent.GroupDied(reason));
        d.cancel(new GroupTimer.JoinPhase(false, 0, 0));
        d.cancel(new GroupTimer.SyncPhase(group.generationId()));
        for (GroupMember m : group.members()) {
            d.cancel(new GroupTimer.MemberSession(m.memberId()));
        }
        for (String pending : group.pendingMembers()) {
            d.cancel(new GroupTimer.PendingMember(pending));
        }
    }
}
