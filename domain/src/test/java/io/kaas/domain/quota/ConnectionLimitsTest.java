package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionLimitsTest {

    @Test
    void unsetLimitsAreUnlimited() {
        ConnectionLimits limits = ConnectionLimits.of(name -> null, Map.of("plain", "PLAIN"));

        assertThat(limits).isEqualTo(new ConnectionLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of(),
                Integer.MAX_VALUE, Map.of("plain", Integer.MAX_VALUE), Map.of("plain", Integer.MAX_VALUE)));
        assertThat(limits.isUnlimited()).isTrue();
    }

    @Test
    void aListenerTakesItsPrefixedValueElseTheBrokerWideOne() {
        Map<String, String> configs = Map.of("max.connections", "100", "max.connection.creation.rate", "50",
                "listener.name.ext_tls.max.connections", "10", "listener.name.plain.max.connection.creation.rate", "5");

        ConnectionLimits limits = ConnectionLimits.of(configs::get, Map.of("plain", "PLAIN", "ext-tls", "EXT_TLS"));

        assertThat(limits.maxConnections("plain")).isEqualTo(100);
        assertThat(limits.maxConnections("ext-tls")).as("kaas's ext-tls is Apache's EXT_TLS").isEqualTo(10);
        assertThat(limits.creationRate("plain")).isEqualTo(5);
        assertThat(limits.creationRate("ext-tls")).isEqualTo(50);
        assertThat(limits.isUnlimited()).isFalse();
    }

    @Test
    void overridesAreReadAsApacheReadsThemAndMatchedByAddress() {
        assertThat(ConnectionLimits.parseOverrides(" 127.0.0.1:2 , broker-host:7,::1:4"))
                .containsExactly(Map.entry("127.0.0.1", 2), Map.entry("broker-host", 7), Map.entry("::1", 4));
        assertThat(ConnectionLimits.parseOverrides("")).isEmpty();
        assertThatThrownBy(() -> ConnectionLimits.parseOverrides("bad")).hasMessage("begin 0, end -1, length 3");
        assertThatThrownBy(() -> ConnectionLimits.parseOverrides("h:x")).isInstanceOf(NumberFormatException.class);

        ConnectionLimits limits = ConnectionLimits.of(Map.of("max.connections.per.ip", "3",
                "max.connections.per.ip.overrides", "127.0.0.1:5,broker-host:7,nowhere:1")::get, Map.of())
                .withOverrideAddresses(host -> switch (host) {
                    case "broker-host" -> "10.0.0.7";
                    case "nowhere" -> null;
                    default -> host;
                });

        assertThat(limits.maxConnectionsPerIp("127.0.0.1")).isEqualTo(5);
        assertThat(limits.maxConnectionsPerIp("10.0.0.7")).isEqualTo(7);
        assertThat(limits.maxConnectionsPerIp("10.0.0.8")).isEqualTo(3);
        assertThat(limits.perIpOverrides()).doesNotContainKey("nowhere");
    }
}
