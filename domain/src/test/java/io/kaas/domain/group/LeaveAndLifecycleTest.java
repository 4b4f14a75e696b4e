package io.kaas.domain.group;

import static io.kaas.domain.group.GroupTestContext.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** LeaveGroup, the OffsetCommit membership check, DeleteGroups, unloading, DescribeGroups. */
class LeaveAndLifecycleTest {
    private final GroupTestContext ctx = new GroupTestContext();

    @Test
    void aLeavingMemberRebalancesTheOthers() {
        List<String> members = ctx.stableGroup("c1", "c2");

        LeaveResult result = ctx.leave(members.get(1));

        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(result.members()).extracting(LeaveResult.MemberResult::error).containsExactly(KafkaError.NONE);
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        long rejoin = ctx.join().member(members.get(0)).client("c1").send();
        assertThat(ctx.joinReply(rejoin).generationId()).as("the only member rejoined: done at once").isEqualTo(2);
    }

    @Test
    void theLastMemberLeavingEmptiesTheGroup() {
        List<String> members = ctx.stableGroup("c1");
        ctx.leave(members.get(0));
        assertThat(ctx.group.state()).isEqualTo(GroupState.EMPTY);
        assertThat(ctx.group.generationId()).isEqualTo(2);
    }

    @Test
    void aParkedJoinOfALeavingMemberIsAnsweredUnknownMember() {
        List<String> members = ctx.stableGroup("c1", "c2");
        long parked = ctx.join().member(members.get(0)).client("c1").send();
        ctx.leave(members.get(0));
        assertThat(ctx.joinReply(parked).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void leavingWithAnUnknownOrPendingIdAnswersPerMember() {
        long first = ctx.join().client("c1").send();
        String pending = ctx.joinReply(first).memberId();

        LeaveResult result = ctx.run(new GroupCommand.Leave(List.of(
                new GroupCommand.LeavingMember(pending, null, null),
                new GroupCommand.LeavingMember("stranger", null, null))));

        assertThat(result.members()).extracting(LeaveResult.MemberResult::error)
                .containsExactly(KafkaError.NONE, KafkaError.UNKNOWN_MEMBER_ID);
        long late = ctx.join().member(pending).client("c1").send();
        assertThat(ctx.joinReply(late).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void commitsOutsideGroupManagementOnlyReachAnEmptyGroup() {
        assertThat(ctx.validateCommit("", null, -1)).isEqualTo(KafkaError.NONE);
        List<String> members = ctx.stableGroup("c1");
        assertThat(ctx.validateCommit("", null, -1)).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
        assertThat(ctx.validateCommit(members.get(0), null, 1)).isEqualTo(KafkaError.NONE);
        assertThat(ctx.validateCommit(members.get(0), null, 0)).isEqualTo(KafkaError.ILLEGAL_GENERATION);
        assertThat(ctx.validateCommit(members.get(0), null, -1)).isEqualTo(KafkaError.ILLEGAL_GENERATION);
        assertThat(ctx.validateCommit("zombie", null, 1)).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void transactionalCommitsSkipTheChecksOldVersionsCannotPass() {
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit("", null, -1))).isEqualTo(KafkaError.NONE);
        List<String> members = ctx.stableGroup("c1");
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit("", null, -1))).as("no member id: v0-2")
                .isEqualTo(KafkaError.NONE);
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit(members.get(0), null, 1))).isEqualTo(KafkaError.NONE);
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit(members.get(0), null, 0)))
                .isEqualTo(KafkaError.ILLEGAL_GENERATION);
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit("zombie", null, 1))).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit(members.get(0), "gone", 1)))
                .isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aTransactionalCommitMayStageWhileTheAssignmentIsComputed() {
        long join = ctx.joinNew("c1");
        ctx.sleep(3_000);
        String member = ctx.joinReply(join).memberId();

        assertThat(ctx.run(new GroupCommand.ValidateTxnOffsetCommit(member, null, 1))).isEqualTo(KafkaError.NONE);
    }

    @Test
    void commitsWaitOutTheSyncPhaseButNotTheJoinPhase() {
        long join = ctx.joinNew("c1");
        ctx.sleep(3_000);
        String member = ctx.joinReply(join).memberId();
        assertThat(ctx.validateCommit(member, null, 1)).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);

        ctx.sync(member, 1, Map.of(member, bytes("p")));
        long second = ctx.joinNew("c2"); // a new member: PreparingRebalance until c1 rejoins
        assertThat(ctx.joinReply(second)).isNull();
        assertThat(ctx.validateCommit(member, null, 1)).as("the previous generation may still commit")
                .isEqualTo(KafkaError.NONE);
    }

    @Test
    void aCommitKeepsTheCommittersSessionAlive() {
        List<String> members = ctx.stableGroup("c1");
        ctx.sleep(GroupTestContext.SESSION_MS - 1);
        ctx.validateCommit(members.get(0), null, 1);
        ctx.sleep(GroupTestContext.SESSION_MS - 1);
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void onlyAnEmptyGroupCanBeDeleted() {
        List<String> members = ctx.stableGroup("c1");
        assertThat(ctx.run(new GroupCommand.Delete())).isEqualTo(KafkaError.NON_EMPTY_GROUP);

        ctx.leave(members.get(0));
        assertThat(ctx.run(new GroupCommand.Delete())).isEqualTo(KafkaError.NONE);
        assertThat(ctx.group.state()).isEqualTo(GroupState.DEAD);
        assertThat(ctx.run(new GroupCommand.Delete())).isEqualTo(KafkaError.GROUP_ID_NOT_FOUND);
    }

    @Test
    void aDeadGroupSendsClientsBackToFindTheCoordinator() {
        ctx.run(new GroupCommand.Delete());
        long join = ctx.join().client("c").send();
        assertThat(ctx.joinReply(join).error()).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(ctx.heartbeat("m", 1)).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(ctx.validateCommit("", null, -1)).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(ctx.leave("m").error()).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(ctx.syncReply(ctx.sync("m", 1, Map.of())).error()).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
    }

    @Test
    void unloadingAnswersParkedRequestsNotCoordinator() {
        List<String> members = ctx.stableGroup("c1", "c2");
        long parked = ctx.join().member(members.get(0)).client("c1").send();

        ctx.run(new GroupCommand.Unload());

        assertThat(ctx.joinReply(parked).error()).isEqualTo(KafkaError.NOT_COORDINATOR);
        assertThat(ctx.group.state()).isEqualTo(GroupState.DEAD);
        ctx.sleep(GroupTestContext.REBALANCE_MS * 10L); // no timer acts on a dead group
        assertThat(ctx.group.state()).isEqualTo(GroupState.DEAD);
    }

    @Test
    void describeShowsMetadataAndAssignmentsOnlyWhenStable() {
        List<String> members = ctx.stableGroup("c1", "c2");

        GroupDescription stable = ctx.group.describe();
        assertThat(stable.state()).isEqualTo(GroupState.STABLE);
        assertThat(stable.protocolType()).isEqualTo("consumer");
        assertThat(stable.protocol()).isEqualTo("range");
        assertThat(stable.members()).extracting(GroupDescription.MemberDescription::memberId).containsExactlyElementsOf(members);
        assertThat(stable.members().get(1).assignment()).isEqualTo(bytes("assigned-to-" + members.get(1)));
        assertThat(stable.members().get(1).metadata()).isNotEmpty();
        assertThat(stable.members().get(1).clientHost()).isEqualTo("/127.0.0.1");

        ctx.join().member(members.get(0)).client("c1").send();
        GroupDescription preparing = ctx.group.describe();
        assertThat(preparing.protocol()).isEmpty();
        assertThat(preparing.members().get(1).assignment()).isEmpty();
        assertThat(preparing.members().get(1).metadata()).isEmpty();
    }

    @Test
    void theGroupKnowsWhichTopicsItsConsumersSubscribeTo() {
        ctx.stableGroup("c1");
        assertThat(ctx.group.isSubscribedTo("t")).isTrue();
        assertThat(ctx.group.isSubscribedTo("other")).isFalse();

        GroupTestContext connect = new GroupTestContext();
        connect.join().client("w").protocolType("connect").protocols(new Protocol("sessioned", bytes("x"))).send();
        connect.sleep(3_000);
        assertThat(connect.group.isSubscribedTo("anything")).as("unknown for other protocol types").isTrue();
    }
}
