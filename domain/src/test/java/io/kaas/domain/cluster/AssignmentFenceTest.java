package io.kaas.domain.cluster;

import static io.kaas.domain.cluster.AssignmentTest.alive;
import static io.kaas.domain.cluster.AssignmentTest.assignment;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.cluster.AssignmentFence.Verdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignmentFenceTest {
    private static Assignment at(long epoch, long version) {
        return assignment(epoch, version, alive(0), Map.of(), Map.of());
    }

    @Test
    void theFirstAssignmentIsTakenUnlessALaterControllerIsKnown() {
        assertThat(AssignmentFence.check(null, at(2, 1), 0)).isEqualTo(Verdict.ACCEPT);
        assertThat(AssignmentFence.check(null, at(2, 1), 2)).isEqualTo(Verdict.ACCEPT);
        assertThat(AssignmentFence.check(null, at(2, 1), 3)).isEqualTo(Verdict.STALE_CONTROLLER);
    }

    @Test
    void aDeposedControllerCannotRollTheClusterBack() {
        Assignment current = at(5, 7);

        assertThat(AssignmentFence.check(current, at(4, 99), 5)).isEqualTo(Verdict.STALE_CONTROLLER);
        assertThat(AssignmentFence.check(current, at(5, 8), 6)).as("the Lease moved on meanwhile")
                .isEqualTo(Verdict.STALE_CONTROLLER);
    }

    @Test
    void onlyANewerAssignmentIsTaken() {
        Assignment current = at(5, 7);

        assertThat(AssignmentFence.check(current, at(5, 7), 5)).isEqualTo(Verdict.NOT_NEWER);
        assertThat(AssignmentFence.check(current, at(5, 6), 5)).isEqualTo(Verdict.NOT_NEWER);
        assertThat(AssignmentFence.check(current, at(5, 8), 5)).isEqualTo(Verdict.ACCEPT);
        assertThat(AssignmentFence.check(current, at(6, 1), 5)).isEqualTo(Verdict.ACCEPT);
    }
}
