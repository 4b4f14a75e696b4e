package io.kaas.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {

    @Test
    void aPodsEnvironmentGivesTheSettings() {
        OperatorSettings settings = OperatorSettings.fromEnv(Map.of("KAAS_DATA_DIR", "/mnt/kaas",
                "MY_POD_NAMESPACE", "kafka", "MY_POD_NAME", "kaas-operator-7d9f"));

        assertThat(settings).isEqualTo(new OperatorSettings(Path.of("/mnt/kaas"), "kafka",
                Optional.of(new OperatorSettings.LeaderElection("kaas-operator", "kaas-operator-7d9f")),
                Duration.ofMinutes(5), List.of()));
    }

    @Test
    void kaasNamespaceWinsAndTheDataVolumeDefaultsToData() {
        OperatorSettings settings = OperatorSettings.fromEnv(Map.of("KAAS_NAMESPACE", "kafka", "MY_POD_NAMESPACE",
                "other", "HOSTNAME", "op-1", "KAAS_OPERATOR_LEASE_NAME", "my-lease"));

        assertThat(settings.dataDir()).isEqualTo(Path.of("/data"));
        assertThat(settings.namespace()).isEqualTo("kafka");
        assertThat(settings.leaderElection()).contains(new OperatorSettings.LeaderElection("my-lease", "op-1"));
    }

    @Test
    void leaderElectionCanBeTurnedOffForAnOperatorThatRunsAlone() {
        OperatorSettings settings = OperatorSettings.fromEnv(Map.of("KAAS_NAMESPACE", "kafka", "MY_POD_NAME", "op",
                "KAAS_OPERATOR_LEADER_ELECTION", "false"));

        assertThat(settings.leaderElection()).isEmpty();
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("KAAS_DATA_DIR", " ",
                "KAAS_OPERATOR_LEADER_ELECTION", "no")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("KAAS_DATA_DIR is empty", "KAAS_NAMESPACE", "MY_POD_NAME",
                        "KAAS_OPERATOR_LEADER_ELECTION must be true or false");
    }
}
