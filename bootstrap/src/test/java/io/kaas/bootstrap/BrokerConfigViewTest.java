package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerConfigViewTest {

    @Test
    void kaasOwnFlushDefaultIsReportedAsTheBrokersStaticConfigOverApachesDefault() {
        BrokerConfigs.Entry flush = BrokerConfigView.of(BrokerConfig.fromEnvironment(Map.of()))
                .get("log.flush.interval.messages").orElseThrow();

        assertThat(flush.value()).isEqualTo("1");
        assertThat(flush.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(flush.defaultValue()).isEqualTo(String.valueOf(Long.MAX_VALUE));
    }

    @Test
    void apachesFlushDefaultSetExplicitlyIsStillStaticAndOtherSettingsAtTheirDefaultStayDefault() {
        BrokerConfigs view = BrokerConfigView.of(BrokerConfig.fromEnvironment(
                Map.of("KAAS_FLUSH_INTERVAL_MESSAGES", String.valueOf(Long.MAX_VALUE))));

        assertThat(view.get("log.flush.interval.messages").orElseThrow().source())
                .isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(view.get("log.segment.bytes").orElseThrow().source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void connectionLimitsComeFromTheEnvironmentUnderApachesNamesAndListenerPrefixes() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_MAX_CONNECTIONS", "500",
                "KAAS_MAX_CONNECTIONS_PER_IP", "0", "KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES", "10.0.0.1:5, ::1:2",
                "KAAS_LISTENERS", "[{\"name\":\"plain\",\"port\":0},{\"name\":\"ext-tls\",\"port\":0}]"));
        BrokerConfigs view = BrokerConfigView.of(config);

        assertThat(view.get("max.connections").orElseThrow())
                .satisfies(e -> assertThat(e.value()).isEqualTo("500"))
                .satisfies(e -> assertThat(e.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG))
                .satisfies(e -> assertThat(e.defaultValue()).isEqualTo(String.valueOf(Integer.MAX_VALUE)));
        assertThat(view.get("max.connections.per.ip").orElseThrow().value()).isEqualTo("0");
        assertThat(view.get("max.connections.per.ip.overrides").orElseThrow().value()).isEqualTo("10.0.0.1:5,::1:2");
        assertThat(view.get("max.connection.creation.rate").orElseThrow().source())
                .isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(BrokerConfigView.apacheListenerNames(config)).containsExactly(Map.entry("plain", "PLAIN"),
                Map.entry("ext-tls", "EXT_TLS"));
        assertThat(BrokerConfigView.apacheListenerNames(BrokerConfig.fromEnvironment(Map.of())))
                .as("the one default listener is Apache's PLAINTEXT").containsExactly(Map.entry("plain", "PLAINTEXT"));
    }

    @Test
    void zeroConnectionsPerIpNeedsOverridesAsApacheRequires() {
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_MAX_CONNECTIONS_PER_IP", "0")))
                .hasMessageContaining("KAAS_MAX_CONNECTIONS_PER_IP can be set to zero only if"
                        + " KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES is set");
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES", "x")))
                .hasMessageContaining("KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES=x: expected host:count,...");
    }
}
