package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A group rebuilt from its events is the same group: handling and replay share {@link ClassicGroup#apply}. */
class GroupReplayTest {

    @Test
    void replayingTheEventsRebuildsTheGroup() {
        GroupTestContext ctx = new GroupTestContext();
        List<String> members = ctx.stableGroup("c1", "c2", "c3");
        ctx.leave(members.get(2));
        ctx.join().member(members.get(0)).client("c1").send();
        ctx.join().instance("s").client("cs").send();
        ctx.join().member(members.get(1)).client("c2").send();
        ctx.sleep(GroupTestContext.REBALANCE_MS);
        ctx.sync(ctx.group.leaderId(), ctx.group.generationId(), Map.of());

        ClassicGroup rebuilt = new ClassicGroup("g", ctx.config);
        ctx.events.forEach(rebuilt::apply);

        assertThat(rebuilt.state()).isEqualTo(ctx.group.state());
        assertThat(rebuilt.generationId()).isEqualTo(ctx.group.generationId());
        assertThat(rebuilt.leaderId()).isEqualTo(ctx.group.leaderId());
        assertThat(rebuilt.memberIds()).containsExactlyElementsOf(ctx.group.memberIds());
        assertThat(rebuilt.describe()).usingRecursiveComparison().isEqualTo(ctx.group.describe());
        assertThat(rebuilt.pendingSyncMembers()).isEqualTo(ctx.group.pendingSyncMembers());
    }
}
