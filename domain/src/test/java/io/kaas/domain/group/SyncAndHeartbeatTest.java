package io.kaas.domain.group;

import static io.kaas.domain.group.GroupTestContext.REBALANCE_MS;
import static io.kaas.domain.group.GroupTestContext.SESSION_MS;
import static io.kaas.domain.group.GroupTestContext.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SyncGroup, Heartbeat, generation checks and session expiry. */
class SyncAndHeartbeatTest {
    private final GroupTestContext ctx = new GroupTestContext();

    private List<String> completingGroup(String... clients) {
        List<Long> joins = new java.util.ArrayList<>();
        for (String c : clients) {
            joins.add(ctx.joinNew(c));
        }
        ctx.sleep(6_000); // the second arrival extends the initial delay once
        return joins.stream().map(j -> ctx.joinReply(j).memberId()).toList();
    }

    @Test
    void followersWaitForTheLeadersAssignment() {
        List<String> members = completingGroup("leader", "follower");
        long follower = ctx.sync(members.get(1), 1, Map.of());
        assertThat(ctx.syncReply(follower)).as("parked until the leader syncs").isNull();

        long leader = ctx.sync(members.get(0), 1, Map.of(members.get(0), bytes("p0"), members.get(1), bytes("p1")));

        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);
        assertThat(ctx.syncReply(leader).assignment()).isEqualTo(bytes("p0"));
        assertThat(ctx.syncReply(follower).assignment()).isEqualTo(bytes("p1"));
        assertThat(ctx.syncReply(follower).protocolType()).isEqualTo("consumer");
        assertThat(ctx.syncReply(follower).protocolName()).isEqualTo("range");
    }

    @Test
    void aFollowerSyncingAfterTheLeaderGetsItsAssignmentAtOnce_andOmittedMembersGetNothing() {
        List<String> members = completingGroup("leader", "follower");
        ctx.sync(members.get(0), 1, Map.of(members.get(0), bytes("p0")));

        long follower = ctx.sync(members.get(1), 1, Map.of());

        assertThat(ctx.syncReply(follower).error()).isEqualTo(KafkaError.NONE);
        assertThat(ctx.syncReply(follower).assignment()).isEmpty();
    }

    @Test
    void syncIsCheckedForMembershipGenerationAndProtocol() {
        List<String> members = completingGroup("c1");
        assertThat(ctx.syncReply(ctx.sync("stranger", 1, Map.of())).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
        assertThat(ctx.syncReply(ctx.sync(members.get(0), 0, Map.of())).error()).isEqualTo(KafkaError.ILLEGAL_GENERATION);

        long wrongProtocol = 99;
        ctx.run(new GroupCommand.Sync(wrongProtocol, members.get(0), null, 1, "consumer", "roundrobin", Map.of()));
        assertThat(ctx.syncReply(wrongProtocol).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
        long wrongType = 98;
        ctx.run(new GroupCommand.Sync(wrongType, members.get(0), null, 1, "connect", "range", Map.of()));
        assertThat(ctx.syncReply(wrongType).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
        long right = 97;
        ctx.run(new GroupCommand.Sync(right, members.get(0), null, 1, "consumer", "range", Map.of()));
        assertThat(ctx.syncReply(right).error()).isEqualTo(KafkaError.NONE);
    }

    @Test
    void aSyncDuringTheJoinPhaseIsToldToRejoin() {
        List<String> members = ctx.stableGroup("c1", "c2");
        ctx.join().member(members.get(0)).client("c1").send();

        assertThat(ctx.syncReply(ctx.sync(members.get(1), 1, Map.of())).error()).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Test
    void aRebalanceDuringTheSyncPhaseReleasesParkedFollowers() {
        List<String> members = completingGroup("c1", "c2");
        long parked = ctx.sync(members.get(1), 1, Map.of());

        ctx.leave(members.get(0));

        assertThat(ctx.syncReply(parked).error()).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
    }

    @Test
    void heartbeatsAnswerAccordingToTheGroupsState() {
        List<String> members = ctx.stableGroup("c1", "c2");
        assertThat(ctx.heartbeat(members.get(1), 1)).isEqualTo(KafkaError.NONE);
        assertThat(ctx.heartbeat(members.get(1), 0)).isEqualTo(KafkaError.ILLEGAL_GENERATION);
        assertThat(ctx.heartbeat("stranger", 1)).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);

        ctx.join().member(members.get(0)).client("c1").send();
        assertThat(ctx.heartbeat(members.get(1), 1)).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Test
    void heartbeatsInTheSyncPhaseAreNormal() {
        List<String> members = completingGroup("c1");
        assertThat(ctx.heartbeat(members.get(0), 1)).isEqualTo(KafkaError.NONE);
    }

    @Test
    void heartbeatsKeepAMemberAliveAndSilenceExpiresIt() {
        List<String> members = ctx.stableGroup("c1", "c2");
        for (int i = 0; i < 5; i++) {
            ctx.sleep(SESSION_MS - 1);
            ctx.heartbeat(members.get(0), 1);
            ctx.heartbeat(members.get(1), 1);
        }
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);

        ctx.sleep(SESSION_MS - 1);
        ctx.heartbeat(members.get(0), 1);
        ctx.sleep(1); // c2 fell silent one session ago

        assertThat(ctx.group.memberIds()).containsExactly(members.get(0));
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(ctx.heartbeat(members.get(0), 1)).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Test
    void theLastMemberExpiringEmptiesTheGroup() {
        ctx.stableGroup("c1");
        ctx.sleep(SESSION_MS);
        assertThat(ctx.group.state()).isEqualTo(GroupState.EMPTY);
        assertThat(ctx.group.generationId()).isEqualTo(2);
        assertThat(ctx.group.size()).isZero();
    }

    @Test
    void aMemberWaitingOnTheGroupIsNotExpired() {
        List<String> members = completingGroup("leader", "follower");
        long parked = ctx.sync(members.get(1), 1, Map.of());
        ctx.heartbeat(members.get(0), 1);
        ctx.sleep(SESSION_MS + 1); // the leader falls silent; the follower, parked in SyncGroup, counts as alive
        assertThat(ctx.group.hasMember(members.get(1))).isTrue();
        assertThat(ctx.syncReply(parked).error()).as("the silent leader expired, which restarts the rebalance")
                .isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Test
    void membersThatNeverSyncAreDroppedAtTheRebalanceTimeout() {
        List<String> members = completingGroup("leader", "follower");
        ctx.sync(members.get(0), 1, Map.of(members.get(0), bytes("p0")));
        for (int i = 0; i < 3; i++) {
            ctx.sleep(SESSION_MS - 1);
            ctx.heartbeat(members.get(0), 1);
            ctx.heartbeat(members.get(1), 1); // alive but never syncs
        }
        ctx.sleep(REBALANCE_MS - 3 * (SESSION_MS - 1));

        assertThat(ctx.group.memberIds()).containsExactly(members.get(0));
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
    }
}
