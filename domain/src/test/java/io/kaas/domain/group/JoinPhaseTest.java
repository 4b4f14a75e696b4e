package io.kaas.domain.group;

import static io.kaas.domain.group.GroupTestContext.REBALANCE_MS;
import static io.kaas.domain.group.GroupTestContext.SESSION_MS;
import static io.kaas.domain.group.GroupTestContext.subscription;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JoinGroup and the join phase: Empty → PreparingRebalance → CompletingRebalance. */
class JoinPhaseTest {
    private final GroupTestContext ctx = new GroupTestContext();

    @Test
    void theFirstJoinWaitsOutTheInitialDelayThenLeadsGenerationOne() {
        long join = ctx.join().legacy().client("c1").send();

        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(ctx.joinReply(join)).as("parked").isNull();
        ctx.sleep(2_999);
        assertThat(ctx.joinReply(join)).isNull();

        ctx.sleep(1);
        JoinResponse response = ctx.joinReply(join);
        assertThat(response.error()).isEqualTo(KafkaError.NONE);
        assertThat(response.generationId()).isEqualTo(1);
        assertThat(response.memberId()).isEqualTo("c1-id1");
        assertThat(response.leaderId()).isEqualTo(response.memberId());
        assertThat(response.protocolType()).isEqualTo("consumer");
        assertThat(response.protocolName()).isEqualTo("range");
        assertThat(response.members()).extracting(JoinResponse.JoinedMember::memberId).containsExactly("c1-id1");
        assertThat(ctx.group.state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
    }

    @Test
    void membersArrivingDuringTheInitialDelayExtendItOnceEach() {
        long first = ctx.join().legacy().client("c1").send();
        ctx.sleep(2_000);
        long second = ctx.join().legacy().client("c2").send();
        ctx.sleep(1_000); // the first delay ends; c2 arrived during it, so it waits another 3 s
        assertThat(ctx.joinReply(first)).isNull();
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);

        ctx.sleep(3_000);
        assertThat(ctx.joinReply(first).generationId()).isEqualTo(1);
        assertThat(ctx.joinReply(second).generationId()).isEqualTo(1);
        assertThat(ctx.joinReply(first).members()).hasSize(2);
        assertThat(ctx.joinReply(second).members()).as("only the leader gets the members").isEmpty();
    }

    @Test
    void theInitialDelayNeverExceedsTheRebalanceTimeout() {
        GroupTestContext short_ = new GroupTestContext();
        long first = short_.join().legacy().client("c1").rebalance(4_000).send();
        for (int i = 2; i <= 5; i++) {
            short_.sleep(1_000);
            short_.join().legacy().client("c" + i).rebalance(4_000).send();
        }
        short_.sleep(2_000); // 3 s + 1 s: the 4 s rebalance timeout caps the extensions
        assertThat(short_.joinReply(first)).isNotNull();
        assertThat(short_.group.size()).isEqualTo(5);
    }

    @Test
    void kip394GivesANewMemberAnIdAndOnlyItsRejoinMakesItAMember() {
        long first = ctx.join().client("c1").send();

        JoinResponse required = ctx.joinReply(first);
        assertThat(required.error()).isEqualTo(KafkaError.MEMBER_ID_REQUIRED);
        assertThat(required.memberId()).isEqualTo("c1-id1");
        assertThat(ctx.group.size()).isZero();
        assertThat(ctx.group.state()).isEqualTo(GroupState.EMPTY);

        long second = ctx.join().member("c1-id1").client("c1").send();
        ctx.sleep(3_000);
        assertThat(ctx.joinReply(second).memberId()).isEqualTo("c1-id1");
        assertThat(ctx.joinReply(second).generationId()).isEqualTo(1);
    }

    @Test
    void aPendingMemberIdExpiresAfterTheSessionTimeout() {
        long first = ctx.join().client("ghost").send();
        String id = ctx.joinReply(first).memberId();

        ctx.sleep(SESSION_MS);

        long late = ctx.join().member(id).client("ghost").send();
        assertThat(ctx.joinReply(late).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aPendingMemberHoldsTheRebalanceUntilItJoinsOrExpires() {
        List<String> members = ctx.stableGroup("c1");
        long pending = ctx.join().client("c2").send(); // MEMBER_ID_REQUIRED; the group stays stable
        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);

        long rejoin = ctx.join().member(members.get(0)).client("c1").send(); // the leader rejoins
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(ctx.joinReply(rejoin)).as("waits for the pending member").isNull();

        ctx.join().member(ctx.joinReply(pending).memberId()).client("c2").send();
        assertThat(ctx.joinReply(rejoin).generationId()).isEqualTo(2);
        assertThat(ctx.group.size()).isEqualTo(2);
    }

    @Test
    void aRebalanceCompletesAsSoonAsEveryMemberRejoined() {
        List<String> members = ctx.stableGroup("c1", "c2");
        long first = ctx.join().member(members.get(0)).client("c1").send();
        assertThat(ctx.joinReply(first)).isNull();

        long second = ctx.join().member(members.get(1)).client("c2").send();

        assertThat(ctx.joinReply(first).generationId()).isEqualTo(2);
        assertThat(ctx.joinReply(second).generationId()).isEqualTo(2);
        assertThat(ctx.group.state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
    }

    @Test
    void dynamicMembersThatDoNotRejoinInTheRebalanceTimeoutAreDropped() {
        List<String> members = ctx.stableGroup("c1", "c2");
        // c2 rejoins with a new subscription, which starts a rebalance; c1 (the leader) never rejoins
        ctx.join().member(members.get(1)).client("c2").protocols(new Protocol("range", subscription("t", "u"))).send();

        for (int i = 0; i < 3; i++) {
            ctx.sleep(9_000);
            assertThat(ctx.heartbeat(members.get(0), 1)).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS); // alive, not rejoining
        }
        ctx.sleep(REBALANCE_MS - 27_000);

        assertThat(ctx.group.memberIds()).containsExactly(members.get(1));
        assertThat(ctx.group.leaderId()).as("a rejoined member leads").isEqualTo(members.get(1));
        assertThat(ctx.group.generationId()).isEqualTo(2);
    }

    @Test
    void followersWithUnchangedMetadataInAStableGroupGetTheCurrentGeneration() {
        List<String> members = ctx.stableGroup("c1", "c2");
        long rejoin = ctx.join().member(members.get(1)).client("c2").send();

        assertThat(ctx.group.state()).isEqualTo(GroupState.STABLE);
        assertThat(ctx.joinReply(rejoin).generationId()).isEqualTo(1);
        assertThat(ctx.joinReply(rejoin).leaderId()).isEqualTo(members.get(0));
    }

    @Test
    void changedMetadataOrALeaderRejoinTriggersARebalance() {
        List<String> members = ctx.stableGroup("c1", "c2");
        ctx.join().member(members.get(1)).client("c2").protocols(new Protocol("range", subscription("t", "u"))).send();
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
    }

    @Test
    void aMemberThatMissedItsJoinResponseGetsItAgain() {
        long first = ctx.joinNew("c1");
        ctx.sleep(3_000);
        String id = ctx.joinReply(first).memberId();

        long again = ctx.join().member(id).client("c1").send();

        assertThat(ctx.joinReply(again)).isEqualTo(ctx.joinReply(first));
        assertThat(ctx.group.state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
    }

    @Test
    void theProtocolIsTheOneMostMembersPreferAmongThoseAllSupport() {
        Protocol range = new Protocol("range", subscription("t"));
        Protocol sticky = new Protocol("cooperative-sticky", subscription("t"));
        Protocol roundRobin = new Protocol("roundrobin", subscription("t"));
        ctx.join().legacy().client("a").protocols(range, sticky, roundRobin).send();
        ctx.join().legacy().client("b").protocols(sticky, range).send();
        long c = ctx.join().legacy().client("c").protocols(sticky, roundRobin, range).send();
        ctx.sleep(10_000);

        assertThat(ctx.joinReply(c).protocolName()).isEqualTo("cooperative-sticky");
    }

    @Test
    void joinsThatDoNotFitTheGroupAreInconsistent() {
        ctx.stableGroup("c1");
        long otherType = ctx.join().client("x").protocolType("connect").send();
        long noCommonProtocol = ctx.join().client("y").protocols(new Protocol("roundrobin", new byte[0])).send();

        assertThat(ctx.joinReply(otherType).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(ctx.joinReply(noCommonProtocol).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void anEmptyProtocolListCannotStartAGroup() {
        long join = ctx.join().client("z").protocols().send();
        assertThat(ctx.joinReply(join).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
        long noType = ctx.join().client("z").protocolType("").send();
        assertThat(ctx.joinReply(noType).error()).isEqualTo(KafkaError.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void sessionTimeoutsOutsideTheBrokerRangeAreRefused() {
        long tooShort = ctx.join().client("c").session(999).send();
        long tooLong = ctx.join().client("c").session(60_001).send();

        assertThat(ctx.joinReply(tooShort).error()).isEqualTo(KafkaError.INVALID_SESSION_TIMEOUT);
        assertThat(ctx.joinReply(tooLong).error()).isEqualTo(KafkaError.INVALID_SESSION_TIMEOUT);
        assertThat(ctx.group.state()).isEqualTo(GroupState.EMPTY);
    }

    @Test
    void aKnownMemberIdTheGroupDoesNotHaveIsUnknown() {
        long join = ctx.join().member("nobody").client("c").send();
        assertThat(ctx.joinReply(join).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aNewMemberWhoseJoinStaysParkedTooLongIsDropped() {
        GroupTestContext slow = new GroupTestContext();
        long first = slow.join().legacy().client("c1").rebalance(600_000).send();
        slow.sleep(3_000);
        String c1 = slow.joinReply(first).memberId();
        slow.sync(c1, 1, java.util.Map.of(c1, new byte[0]));
        long newcomer = slow.join().legacy().client("c2").send(); // c1 never rejoins, its 10 min rebalance timeout holds the phase open

        for (int i = 0; i < 31; i++) {
            slow.sleep(SESSION_MS - 1);
            slow.heartbeat(c1, 1);
        }

        assertThat(slow.joinReply(newcomer).error()).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
        assertThat(slow.group.memberIds()).containsExactly(c1);
    }

    @Test
    void aLegacyJoinBecomesAMemberAtOnce() {
        long join = ctx.join().legacy().client("old").send();
        assertThat(ctx.group.size()).isOne();
        assertThat(ctx.joinReply(join)).isNull();
    }
}
