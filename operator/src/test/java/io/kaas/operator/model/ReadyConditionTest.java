package io.kaas.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.k8s.crd.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyConditionTest {
    private static final Instant T1 = Instant.parse("2026-01-01T00:00:00.250Z");
    private static final Instant T2 = Instant.parse("2026-01-01T00:05:00Z");

    @Test
    void theTransitionTimeMovesOnlyWhenTheStatusFlips() {
        List<Condition> first = ReadyCondition.set(null, true, "Materialized", "3 partitions", 1L, T1);
        List<Condition> same = ReadyCondition.set(first, true, "Materialized", "5 partitions", 2L, T2);
        List<Condition> flipped = ReadyCondition.set(same, false, "PartitionDecreaseRefused", "no", 3L, T2);

        assertThat(ReadyCondition.of(first).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(ReadyCondition.of(same).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(ReadyCondition.of(same).getObservedGeneration()).isEqualTo(2L);
        assertThat(ReadyCondition.of(same).getMessage()).isEqualTo("5 partitions");
        assertThat(ReadyCondition.of(flipped).getLastTransitionTime()).isEqualTo("2026-01-01T00:05:00Z");
        assertThat(ReadyCondition.of(flipped).getStatus()).isEqualTo("False");
        assertThat(flipped).hasSize(1);
    }

    @Test
    void otherConditionTypesAreKept() {
        Condition other = new Condition();
        other.setType("Degraded");
        other.setStatus("False");

        assertThat(ReadyCondition.set(List.of(other), true, "Materialized", "ok", 1L, T1))
                .extracting(Condition::getType).containsExactly("Degraded", "Ready");
    }
}
