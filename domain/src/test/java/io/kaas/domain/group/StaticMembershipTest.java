package io.kaas.domain.group;

import static io.kaas.domain.group.GroupTestContext.REBALANCE_MS;
import static io.kaas.domain.group.GroupTestContext.SESSION_MS;
import static io.kaas.domain.group.GroupTestContext.bytes;
import static io.kaas.domain.group.GroupTestContext.subscription;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** KIP-345: members with a group.instance.id. */
class StaticMembershipTest {
    private final GroupTestContext ctx = new GroupTestContext();

    /** Two static members, stable at generation 1; returns their member ids (leader first). */
    private List<String> stableStaticGroup() {
        long a = ctx.join().instance("a").client("ca").send();
        long b = ctx.join().instance("b").client("cb").send();
        ctx.sleep(6_000);
        String ma = ctx.joinReply(a).memberId();
        String mb = ctx.joinReply(b).memberId();
        ctx.syncStatic(ma, "a", 1, Map.of(ma, bytes("pa"), mb, bytes("pb")));
        ctx.syncStatic(mb, "b", 1, Map.of());
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);
        return List.of(ma, mb);
    }

    @Test
    void aStaticMemberJoinsWithoutTheMemberIdRoundTrip() {
        long join = ctx.join().instance("a").client("ca").send();
        ctx.sleep(3_000);
        assertThat(ctx.joinReply(join).error()).isEqualTo(KafkaError.NONE);
        assertThat(ctx.joinReply(join).memberId()).startsWith("a-");
    }

    @Test
    void aRestartedFollowerGetsItsAssignmentBackWithoutARebalance() {
        List<String> members = stableStaticGroup();

        long rejoin = ctx.join().instance("b").client("cb").send();

        JoinResponse response = ctx.joinReply(rejoin);
        assertThat(response.error()).isEqualTo(KafkaError.NONE);
        assertThat(response.generationId()).isEqualTo(1);
        assertThat(response.memberId()).isNotEqualTo(members.get(1));
        assertThat(response.skipAssignment()).isFalse();
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);

        long sync = ctx.syncStatic(response.memberId(), "b", 1, Map.of());
        assertThat(ctx.syncReply(sync).assignment()).isEqualTo(bytes("pb"));
    }

    @Test
    void aRestartedLeaderIsToldToSkipTheAssignorFromV9() {
        List<String> members = stableStaticGroup();

        long rejoin = ctx.join().instance("a").client("ca").send();

        JoinResponse response = ctx.joinReply(rejoin);
        assertThat(response.leaderId()).isEqualTo(response.memberId());
        assertThat(response.skipAssignment()).isTrue();
        assertThat(response.members()).hasSize(2);
        assertThat(ctx.group.leaderId()).isEqualTo(response.memberId()).isNotEqualTo(members.get(0));
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void beforeV9ARestartedLeaderSeesThePreviousLeaderIdAndDoesNotAssign() {
        List<String> members = stableStaticGroup();

        long rejoin = ctx.join().instance("a").client("ca").beforeV9().send();

        JoinResponse response = ctx.joinReply(rejoin);
        assertThat(response.leaderId()).isEqualTo(members.get(0));
        assertThat(response.memberId()).isNotEqualTo(members.get(0));
        assertThat(response.skipAssignment()).isFalse();
        assertThat(response.members()).isEmpty();
    }

    @Test
    void theReplacedMemberIdIsFencedEverywhere() {
        List<String> members = stableStaticGroup();
        String old = members.get(1);
        ctx.join().instance("b").client("cb").send();

        assertThat(ctx.heartbeat(old, "b", 1)).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
        assertThat(ctx.syncReply(ctx.syncStatic(old, "b", 1, Map.of())).error()).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
        assertThat(ctx.validateCommit(old, "b", 1)).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
        long oldJoin = ctx.join().member(old).instance("b").client("cb").send();
        assertThat(ctx.joinReply(oldJoin).error()).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
        LeaveResult leave = ctx.run(new GroupCommand.Leave(List.of(new GroupCommand.LeavingMember(old, "b", null))));
        assertThat(leave.members().get(0).error()).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
        assertThat(ctx.heartbeat("whatever", "unknown-instance", 1)).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aDuplicateInstanceFencesTheParkedRequestOfTheOther() {
        List<String> members = stableStaticGroup();
        long parked = ctx.join().member(members.get(0)).instance("a").client("ca").send(); // the leader rejoins: rebalance
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);

        ctx.join().instance("a").client("ca-duplicate").send();

        assertThat(ctx.joinReply(parked).error()).isEqualTo(KafkaError.FENCED_INSTANCE_ID);
    }

    @Test
    void aRestartWhileTheAssignmentIsComputedRestartsTheRebalance() {
        long a = ctx.join().instance("a").client("ca").send();
        long b = ctx.join().instance("b").client("cb").send();
        ctx.sleep(6_000);
        assertThat(ctx.group.state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
        String mb = ctx.joinReply(b).memberId();
        long parkedSync = ctx.syncStatic(mb, "b", 1, Map.of());

        long again = ctx.join().instance("a").client("ca").send();

        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(ctx.joinReply(a).error()).isEqualTo(KafkaError.NONE);
        assertThat(ctx.syncReply(parkedSync).error()).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
        long bAgain = ctx.join().member(mb).instance("b").client("cb").send();
        assertThat(ctx.joinReply(again).generationId()).isEqualTo(2);
        assertThat(ctx.joinReply(bAgain).generationId()).isEqualTo(2);
    }

    @Test
    void aRestartWithProtocolsThatChangeTheChoiceRebalances() {
        stableStaticGroup();
        ctx.join().instance("b").client("cb")
                .protocols(new Protocol("roundrobin", subscription("t")), new Protocol("range", subscription("t"))).send();
        // a supports only range, so range stays the one protocol everyone supports: no change
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);

        GroupTestContext single = new GroupTestContext();
        long s = single.join().instance("s").client("cs").send();
        single.sleep(3_000);
        String id = single.joinReply(s).memberId();
        single.syncStatic(id, "s", 1, Map.of(id, bytes("p")));
        long restarted = single.join().instance("s").client("cs")
                .protocols(new Protocol("roundrobin", subscription("t")), new Protocol("range", subscription("t"))).send();
        // the lone member is the only one to wait for: the rebalance completes at once
        assertThat(single.joinReply(restarted).generationId()).isEqualTo(2);
        assertThat(single.joinReply(restarted).protocolName()).isEqualTo("roundrobin");
    }

    @Test
    void staticMembersSurviveMissingARebalanceButNotTheirSession() {
        List<String> members = stableStaticGroup();
        ctx.join().member(members.get(0)).instance("a").client("ca").send(); // b never rejoins
        ctx.heartbeat(members.get(1), "b", 1);

        ctx.sleep(SESSION_MS - 1);
        assertThat(ctx.group.memberIds()).contains(members.get(1));

        ctx.sleep(1);
        assertThat(ctx.group.memberIds()).containsExactly(members.get(0));
    }

    @Test
    void aStaticMemberMissingTheRebalanceTimeoutStaysAMember() {
        GroupTestContext longSessions = new GroupTestContext();
        long a = longSessions.join().instance("a").client("ca").session(60_000).send();
        long b = longSessions.join().instance("b").client("cb").session(60_000).send();
        longSessions.sleep(6_000);
        String ma = longSessions.joinReply(a).memberId();
        String mb = longSessions.joinReply(b).memberId();
        longSessions.syncStatic(ma, "a", 1, Map.of());
        longSessions.syncStatic(mb, "b", 1, Map.of());

        longSessions.join().member(ma).instance("a").client("ca").session(60_000).send();
        longSessions.sleep(REBALANCE_MS);

        assertThat(longSessions.group.memberIds()).containsExactly(ma, mb);
        assertThat(longSessions.group.generationId()).isEqualTo(2);
    }

    @Test
    void anAdministratorCanRemoveAStaticMemberByInstanceId() {
        List<String> members = stableStaticGroup();

        LeaveResult result = ctx.run(new GroupCommand.Leave(List.of(
                new GroupCommand.LeavingMember("", "b", "removed by admin"),
                new GroupCommand.LeavingMember("", "nope", null))));

        assertThat(result.members()).extracting(LeaveResult.MemberResult::error)
                .containsExactly(KafkaError.NONE, KafkaError.UNKNOWN_MEMBER_ID);
        assertThat(ctx.group.memberIds()).containsExactly(members.get(0));
    }
}
