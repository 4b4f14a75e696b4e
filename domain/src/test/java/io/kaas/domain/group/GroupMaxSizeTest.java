package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code group.max.size}: Apache 3.7's {@code acceptJoiningMember} in each state. */
class GroupMaxSizeTest {
    private static final GroupConfig TWO = new GroupConfig(1_000, 60_000, 3_000, 4_096, 2, 60_000, 10_000);
    private final GroupTestContext ctx = new GroupTestContext(TWO);

    @Test
    void aStableGroupAtItsLimitRefusesANewMemberAndKeepsItsOwn() {
        List<String> members = ctx.stableGroup("c1", "c2");

        long third = ctx.join().client("c3").send();

        assertThat(ctx.joinReply(third).error()).isEqualTo(KafkaError.GROUP_MAX_SIZE_REACHED);
        assertThat(ctx.joinReply(third).memberId()).isEmpty();
        assertThat(ctx.group.state()).as("no rebalance for a refused member").isEqualTo(GroupState.STABLE);
        assertThat(ctx.heartbeat(members.get(0), ctx.group.generationId())).isEqualTo(KafkaError.NONE);
        long rejoin = ctx.join().member(members.get(1)).client("c2").send();
        assertThat(ctx.joinReply(rejoin).error()).as("an existing member may rejoin").isEqualTo(KafkaError.NONE);
    }

    @Test
    void duringARebalanceTheMembersThatRejoinedFirstKeepTheirPlaces() {
        List<String> members = ctx.stableGroup("c1", "c2");
        long first = ctx.join().member(members.get(0)).client("c1").send();
        assertThat(ctx.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);

        long newcomer = ctx.join().member(pendingIdFor("c3")).client("c3").send();
        assertThat(ctx.joinReply(newcomer)).as("one member awaiting, one place left: parked").isNull();

        long late = ctx.join().member(members.get(1)).client("c2").send();
        assertThat(ctx.joinReply(late).error()).as("two awaiting: the last to rejoin is left out")
                .isEqualTo(KafkaError.GROUP_MAX_SIZE_REACHED);
        assertThat(ctx.group.hasMember(members.get(1))).as("and removed").isFalse();
        assertThat(ctx.joinReply(first).error()).as("the rebalance completes with the two").isEqualTo(KafkaError.NONE);
        assertThat(ctx.group.size()).isEqualTo(2);
    }

    @Test
    void anEmptyGroupTakesAnyone() {
        assertThat(ctx.joinReply(ctx.join().client("c1").send()).error()).isEqualTo(KafkaError.MEMBER_ID_REQUIRED);
    }

    /** The two-step join's first step for a new client: the member id it is told to come back with. */
    private String pendingIdFor(String client) {
        JoinResponse required = ctx.joinReply(ctx.join().client(client).send());
        assertThat(required.error()).isEqualTo(KafkaError.MEMBER_ID_REQUIRED);
        return required.memberId();
    }
}
