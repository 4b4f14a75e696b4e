package io.kaas.domain.txn;

import static io.kaas.domain.txn.TxnState.COMPLETE_ABORT;
import static io.kaas.domain.txn.TxnState.COMPLETE_COMMIT;
import static io.kaas.domain.txn.TxnState.DEAD;
import static io.kaas.domain.txn.TxnState.EMPTY;
import static io.kaas.domain.txn.TxnState.ONGOING;
import static io.kaas.domain.txn.TxnState.PREPARE_ABORT;
import static io.kaas.domain.txn.TxnState.PREPARE_COMMIT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TxnStateTest {

    @Test
    void eachStateHasApachesPredecessors() {
        assertThat(predecessors(EMPTY)).containsExactlyInAnyOrder(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        assertThat(predecessors(ONGOING)).containsExactlyInAnyOrder(ONGOING, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        assertThat(predecessors(PREPARE_COMMIT)).containsExactly(ONGOING);
        assertThat(predecessors(PREPARE_ABORT)).containsExactly(ONGOING);
        assertThat(predecessors(COMPLETE_COMMIT)).containsExactly(PREPARE_COMMIT);
        assertThat(predecessors(COMPLETE_ABORT)).containsExactly(PREPARE_ABORT);
        assertThat(predecessors(DEAD)).containsExactlyInAnyOrder(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
    }

    @Test
    void displayNamesAreApaches() {
        assertThat(EnumSet.allOf(TxnState.class)).extracting(TxnState::displayName).containsExactly("Empty", "Ongoing",
                "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort", "Dead");
        assertThat(TxnState.byDisplayName("PrepareAbort")).contains(PREPARE_ABORT);
        assertThat(TxnState.byDisplayName("PrepareEpochFence")).isEmpty();
    }

    @Test
    void slotsSpreadIdsOverFiftyStably() {
        assertThat(TxnSlots.slotFor("tx-1")).isBetween(0, 49).isEqualTo(TxnSlots.slotFor("tx-1"));
        Set<Integer> used = new java.util.HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            used.add(TxnSlots.slotFor("app-" + i));
        }
        assertThat(used).hasSize(TxnSlots.COUNT);
    }

    private static Set<TxnState> predecessors(TxnState state) {
        Set<TxnState> from = EnumSet.noneOf(TxnState.class);
        for (TxnState candidate : TxnState.values()) {
            if (state.canFollow(candidate)) {
                from.add(candidate);
            }
        }
        return from;
    }
}
