package io.kaas.domain.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogDirChoiceTest {
    private static final List<String> DIRS = List.of("default", "bulk", "fast");

    @Test
    void choosesTheDirWithTheFewestPartitions() {
        assertThat(LogDirChoice.fewestPartitions(DIRS, Map.of("default", 3, "bulk", 1, "fast", 2))).isEqualTo("bulk");
    }

    @Test
    void aTieGoesToTheFirstInConfigurationOrderAndAMissingCountIsZero() {
        assertThat(LogDirChoice.fewestPartitions(DIRS, Map.of())).isEqualTo("default");
        assertThat(LogDirChoice.fewestPartitions(DIRS, Map.of("default", 1))).isEqualTo("bulk");
    }

    @Test
    void placingOneAfterAnotherSpreadsPartitionsEvenly() {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 7; i++) {
            counts.merge(LogDirChoice.fewestPartitions(DIRS, counts), 1, Integer::sum);
        }
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("default", 3, "bulk", 2, "fast", 2));
    }

    @Test
    void noDirIsAProgrammingError() {
        assertThatThrownBy(() -> LogDirChoice.fewestPartitions(List.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
