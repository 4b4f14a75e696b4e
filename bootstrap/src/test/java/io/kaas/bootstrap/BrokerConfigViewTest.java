package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

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
}
