package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A stable generation stored and resumed by a restarted coordinator, as Apache loads a group. */
class GroupResumeTest {
    private final GroupTestContext before = new GroupTestContext();

    @Test
    void onlyAStableGroupHasASnapshot() {
        assertThat(before.group.snapshot()).as("empty").isEmpty();
        List<String> members = before.stableGroup("c1", "c2");
        assertThat(before.group.snapshot()).isPresent();
        before.leave(members.get(1));
        assertThat(before.group.snapshot()).as("rebalancing").isEmpty();
    }

    @Test
    void membersThatKeepHeartbeatingCarryOnWithoutARebalance() {
        List<String> members = before.stableGroup("c1", "c2");
        GroupSnapshot snapshot = before.group.snapshot().orElseThrow();
        int generation = before.group.generationId();

        GroupTestContext after = new GroupTestContext();
        after.run(new GroupCommand.Resume(snapshot));

        assertThat(after.group.state()).isEqualTo(GroupState.STABLE);
        assertThat(after.group.generationId()).isEqualTo(generation);
        assertThat(after.group.leaderId()).isEqualTo(before.group.leaderId());
        assertThat(after.group.memberIds()).containsExactlyElementsOf(members);
        assertThat(after.group.isSubscribedTo("t")).isTrue();
        assertThat(after.group.isSubscribedTo("other")).isFalse();
        assertThat(after.group.describe().members())
                .extracting(m -> new String(m.assignment(), StandardCharsets.UTF_8))
                .containsExactly("assigned-to-" + members.get(0), "assigned-to-" + members.get(1));
        for (int i = 0; i < 5; i++) {
            after.sleep(GroupTestContext.SESSION_MS / 2);
            for (String m : members) {
                assertThat(after.heartbeat(m, generation)).isEqualTo(KafkaError.NONE);
            }
        }
        assertThat(after.validateCommit(members.get(0), null, generation)).isEqualTo(KafkaError.NONE);
        assertThat(after.group.state()).isEqualTo(GroupState.STABLE);
        assertThat(after.group.generationId()).isEqualTo(generation);
    }

    @Test
    void aMemberThatDoesNotComeBackExpiresAndTheOthersRebalance() {
        List<String> members = before.stableGroup("c1", "c2");
        GroupTestContext after = new GroupTestContext();
        after.run(new GroupCommand.Resume(before.group.snapshot().orElseThrow()));

        after.sleep(GroupTestContext.SESSION_MS / 2);
        after.heartbeat(members.get(0), before.group.generationId());
        after.sleep(GroupTestContext.SESSION_MS / 2);

        assertThat(after.group.hasMember(members.get(1))).as("its session started at the resume and ran out").isFalse();
        assertThat(after.group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(after.heartbeat(members.get(0), before.group.generationId())).isEqualTo(KafkaError.REBALANCE_IN_PROGRESS);
    }

    @Test
    void aResumedStaticMemberIsFencedByItsNewInstanceAsBefore() {
        long join = before.join().instance("static-1").client("s").send();
        before.sleep(2L * before.config.initialRebalanceDelayMs());
        String memberId = before.joinReply(join).memberId();
        before.sync(memberId, before.joinReply(join).generationId(), Map.of(memberId, new byte[] {1}));
        GroupTestContext after = new GroupTestContext();
        after.run(new GroupCommand.Resume(before.group.snapshot().orElseThrow()));

        after.join().client("other").send(); // takes the id suffix the first context gave out
        long rejoin = after.join().instance("static-1").client("s").send();

        assertThat(after.joinReply(rejoin).error()).isEqualTo(KafkaError.NONE);
        assertThat(after.joinReply(rejoin).memberId()).isNotEqualTo(memberId);
        assertThat(after.heartbeat(memberId, "static-1", before.group.generationId()))
                .isEqualTo(KafkaError.FENCED_INSTANCE_ID);
    }
}
