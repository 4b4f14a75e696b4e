package io.kaas.domain.group;

import static io.kaas.domain.group.GroupState.COMPLETING_REBALANCE;
import static io.kaas.domain.group.GroupState.DEAD;
import static io.kaas.domain.group.GroupState.EMPTY;
import static io.kaas.domain.group.GroupState.PREPARING_REBALANCE;
import static io.kaas.domain.group.GroupState.STABLE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GroupStateTest {

    @Test
    void eachStateHasApachesPredecessors() {
        assertThat(predecessors(EMPTY)).containsExactly(PREPARING_REBALANCE);
        assertThat(predecessors(PREPARING_REBALANCE)).containsExactlyInAnyOrder(EMPTY, COMPLETING_REBALANCE, STABLE);
        assertThat(predecessors(COMPLETING_REBALANCE)).containsExactly(PREPARING_REBALANCE);
        assertThat(predecessors(STABLE)).containsExactly(COMPLETING_REBALANCE);
        assertThat(predecessors(DEAD)).containsExactlyInAnyOrder(GroupState.values());
    }

    @Test
    void displayNamesAreTheWireNames() {
        assertThat(EMPTY).hasToString("Empty");
        assertThat(PREPARING_REBALANCE.displayName()).isEqualTo("PreparingRebalance");
        assertThat(COMPLETING_REBALANCE.displayName()).isEqualTo("CompletingRebalance");
        assertThat(STABLE.displayName()).isEqualTo("Stable");
        assertThat(DEAD.displayName()).isEqualTo("Dead");
    }

    private static Set<GroupState> predecessors(GroupState state) {
        Set<GroupState> from = EnumSet.noneOf(GroupState.class);
        for (GroupState candidate : GroupState.values()) {
            if (state.canFollow(candidate)) {
                from.add(candidate);
            }
        }
        return from;
    }
}
