package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;

/** JoinGroup: new members (dynamic, KIP-394 two-step, static), rejoining members, static restarts. */
final class JoinHandling {
    private JoinHandling() {
    }

    static void handle(Decision d, GroupCommand.Join join) {
        ClassicGroup group = d.group();
        if (!group.config().acceptsSessionTimeout(join.sessionTimeoutMs())) {
            d.replyJoin(join.requestId(), JoinResponse.failed(join.memberId(), KafkaError.INVALID_SESSION_TIMEOUT));
            return;
        }
        if (!acceptsJoiningMember(group, join.memberId())) {
            if (group.hasMember(join.memberId())) {
                Rebalancing.removeMember(d, group.member(join.memberId()), "the group is full (group.max.size)");
            } else if (group.isPendingMember(join.memberId())) {
                Rebalancing.removePendingMember(d, join.memberId());
            }
            d.replyJoin(join.requestId(), JoinResponse.failed("", KafkaError.GROUP_MAX_SIZE_REACHED));
            return;
        }
        if (join.memberId().isEmpty()) {
            joinNewMember(d, join);
        } else {
            joinKnownMember(d, join);
        }
        if (group.state() == GroupState.PREPARING_REBALANCE) {
            Rebalancing.maybeCompleteJoin(d);
        }
    }

    /**
     * {@code group.max.size}, as Apache 3.7's {@code acceptJoiningMember}: an empty group takes anyone;
     * a rebalancing one counts the members already rejoined, so the last to rejoin are the ones left
     * out when the limit was lowered; otherwise existing members stay and new ones fit under the limit.
     */
    private static boolean acceptsJoiningMember(ClassicGroup group, String memberId) {
        GroupMember member = group.hasMember(memberId) ? group.member(memberId) : null;
        int max = group.config().maxSize();
        return switch (group.state()) {
            case EMPTY, DEAD -> true;
            case PREPARING_REBALANCE -> member != null && member.isAwaitingJoin() || group.awaitingJoinCount() < max;
            case COMPLETING_REBALANCE, STABLE -> member != null || group.size() < max;
        };
    }

    private static void joinNewMember(Decision d, GroupCommand.Join join) {
        ClassicGroup group = d.group();
        KafkaError refused = refusal(group, join);
        if (refused != KafkaError.NONE) {
            d.replyJoin(join.requestId(), JoinResponse.failed("", refused));
            return;
        }
        String owner = join.groupInstanceId() != null ? join.groupInstanceId() : join.clientId();
        String newMemberId = owner + "-" + join.newMemberIdSuffix();
        if (join.groupInstanceId() != null) {
            String previous = group.staticMemberId(join.groupInstanceId());
            if (previous != null) {
                replaceStaticMember(d, join, previous, newMemberId);
            } else {
                Rebalancing.addMemberAndRebalance(d, join, newMemberId, "static member " + join.groupInstanceId()
                        + " joins as " + newMemberId + reason(join));
            }
        } else if (join.requireKnownMemberId()) {
            // KIP-394: only a client that echoes the id it was given becomes a member, so a JoinGroup
            // whose response was lost does not leave a ghost member behind.
            d.emit(new GroupEvent.PendingMemberAdded(newMemberId));
            d.schedule(new GroupTimer.PendingMember(newMemberId), join.sessionTimeoutMs());
            d.replyJoin(join.requestId(), JoinResponse.failed(newMemberId, KafkaError.MEMBER_ID_REQUIRED));
        } else {
            Rebalancing.addMemberAndRebalance(d, join, newMemberId, "new member " + newMemberId + " joins" + reason(join));
        }
    }

    private static void joinKnownMember(Decision d, GroupCommand.Join join) {
        ClassicGroup group = d.group();
        String memberId = join.memberId();
        KafkaError refused = refusal(group, join);
        if (refused != KafkaError.NONE) {
            d.replyJoin(join.requestId(), JoinResponse.failed(memberId, refused));
            return;
        }
        if (join.groupInstanceId() == null && group.isPendingMember(memberId)) {
            Rebalancing.addMemberAndRebalance(d, join, memberId, "pending member " + memberId + " joins" + reason(join));
            return;
        }
        KafkaError invalid = group.validateMember(memberId, join.groupInstanceId());
        if (invalid != KafkaError.NONE) {
            d.replyJoin(join.requestId(), JoinResponse.failed(memberId, invalid));
            return;
        }
        GroupMember member = group.member(memberId);
        boolean sameMetadata = Protocol.sameList(member.protocols(), join.protocols());
        switch (group.state()) {
            case PREPARING_REBALANCE -> Rebalancing.updateMemberAndRebalance(d, member, join,
                    "member " + memberId + " joins during the rebalance" + reason(join));
            case COMPLETING_REBALANCE -> {
                if (sameMetadata) {
                    // It missed the JoinGroup response: resend this generation's.
                    replyCurrentGeneration(d, join, group.isLeader(memberId));
                } else {
                    Rebalancing.updateMemberAndRebalance(d, member, join,
                            "member " + memberId + " changed its metadata" + reason(join));
                }
            }
            case STABLE -> {
                if (group.isLeader(memberId)) {
                    // The leader rejoins when something outside the member metadata changed (e.g. partitions).
                    Rebalancing.updateMemberAndRebalance(d, member, join,
                            "leader " + memberId + " rejoins" + reason(join));
                } else if (!sameMetadata) {
                    Rebalancing.updateMemberAndRebalance(d, member, join,
                            "member " + memberId + " changed its metadata" + reason(join));
                } else {
                    replyCurrentGeneration(d, join, false);
                }
            }
            default -> d.replyJoin(join.requestId(), JoinResponse.failed(memberId, KafkaError.UNKNOWN_MEMBER_ID));
        }
    }

    /** A dead group sends the client to find its coordinator again; a mismatched protocol is refused. */
    private static KafkaError refusal(ClassicGroup group, GroupCommand.Join join) {
        if (group.state() == GroupState.DEAD) {
            return KafkaError.COORDINATOR_NOT_AVAILABLE;
        }
        if (!group.supportsProtocols(join.protocolType(), join.protocols())) {
            return KafkaError.INCONSISTENT_GROUP_PROTOCOL;
        }
        return KafkaError.NONE;
    }

    private static void replyCurrentGeneration(Decision d, GroupCommand.Join join, boolean withMembers) {
        ClassicGroup group = d.group();
        d.replyJoin(join.requestId(), new JoinResponse(KafkaError.NONE, group.generationId(), group.protocolType(),
                group.protocolName(), group.leaderId(), join.memberId(), false,
                withMembers ? group.joinedMembers() : List.of()));
    }

    /**
     * KIP-345: a static member restarted (it joins with its instance id and no member id). It takes
     * over the old member's place, and the old id is fenced. A stable group whose protocol choice
     * does not change hands back the current assignment without rebalancing.
     */
    private static void replaceStaticMember(Decision d, GroupCommand.Join join, String oldMemberId, String newMemberId) {
        ClassicGroup group = d.group();
        String previousLeader = group.leaderId();
        GroupMember old = group.member(oldMemberId);
        Rebalancing.answerJoin(d, old, JoinResponse.failed(oldMemberId, KafkaError.FENCED_INSTANCE_ID));
        Rebalancing.answerSync(d, old, SyncResponse.failed(KafkaError.FENCED_INSTANCE_ID));
        d.emit(new GroupEvent.StaticMemberReplaced(join.groupInstanceId(), oldMemberId, newMemberId));
        d.cancel(new GroupTimer.MemberSession(oldMemberId));
        GroupMember member = group.member(newMemberId);
        Rebalancing.touchSession(d, member);
        d.emit(new GroupEvent.MemberUpdated(newMemberId, join.protocols(), join.rebalanceTimeoutMs(),
                join.sessionTimeoutMs(), join.requestId()));
        switch (group.state()) {
            case STABLE -> {
                if (group.selectProtocol().equals(group.protocolName())) {
                    Rebalancing.answerJoin(d, member, staticRejoinResponse(group, join, newMemberId, previousLeader));
                } else {
                    Rebalancing.maybePrepareRebalance(d, "static member " + join.groupInstanceId()
                            + " rejoined with protocols that change the group's choice" + reason(join));
                }
            }
            // The leader may already be assigning to the old id: the new id would get nothing, so start over.
            case COMPLETING_REBALANCE -> Rebalancing.prepareRebalance(d, "static member " + join.groupInstanceId()
                    + " rejoined while the assignment was being computed" + reason(join));
            case PREPARING_REBALANCE -> {
                // parked with the others until the join phase ends
            }
            default -> throw new IllegalStateException("group " + group.groupId() + " has static member "
                    + join.groupInstanceId() + " while " + group.state());
        }
    }

    /**
     * The stable group's answer to a restarted static member. From v9 a leader is told it leads but
     * must skip the assignor (it keeps watching metadata); before v9 the previous leader id is
     * returned, so a restarted leader does not compute an assignment the stable group would ignore.
     */
    private static JoinResponse staticRejoinResponse(ClassicGroup group, GroupCommand.Join join, String memberId,
                                                     String previousLeader) {
        if (join.supportSkipAssignment()) {
            boolean leader = group.isLeader(memberId);
            return new JoinResponse(KafkaError.NONE, group.generationId(), group.protocolType(), group.protocolName(),
                    group.leaderId(), memberId, leader, leader ? group.joinedMembers() : List.of());
        }
        return new JoinResponse(KafkaError.NONE, group.generationId(), group.protocolType(), group.protocolName(),
                previousLeader, memberId, false, List.of());
    }

    private static String reason(GroupCommand.Join join) {
        return join.reason() == null || join.reason().isEmpty() ? "" : " (client reason: " + join.reason() + ")";
    }
}
