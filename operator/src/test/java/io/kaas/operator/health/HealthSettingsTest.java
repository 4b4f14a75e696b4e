package io.kaas.operator.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthSettingsTest {

    @Test
    void probesAreOnPort8081OfEveryAddressByDefault() {
        assertThat(HealthSettings.fromEnv(Map.of())).isEqualTo(new HealthSettings("0.0.0.0", 8081));
    }

    @Test
    void hostAndPortComeFromTheEnvironment() {
        assertThat(HealthSettings.fromEnv(Map.of("KAAS_OPERATOR_HEALTH_HOST", "127.0.0.1",
                "KAAS_OPERATOR_HEALTH_PORT", "19401"))).isEqualTo(new HealthSettings("127.0.0.1", 19_401));
    }

    @Test
    void aPortThatIsNoPortIsRefusedByName() {
        assertThatThrownBy(() -> HealthSettings.fromEnv(Map.of("KAAS_OPERATOR_HEALTH_PORT", "70000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KAAS_OPERATOR_HEALTH_PORT must be a port number");
        assertThatThrownBy(() -> HealthSettings.fromEnv(Map.of("KAAS_OPERATOR_HEALTH_HOST", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KAAS_OPERATOR_HEALTH_HOST is empty");
    }
}
