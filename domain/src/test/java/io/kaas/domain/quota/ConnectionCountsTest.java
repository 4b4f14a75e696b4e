package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionCountsTest {
    private final ConnectionCounts counts = new ConnectionCounts();

    @Test
    void anIpAtItsMaximumIsRefusedUncountedUntilOneOfItsConnectionsCloses() {
        ConnectionLimits limits = ConnectionLimits.of(Map.of("max.connections.per.ip", "2",
                "max.connections.per.ip.overrides", "10.0.0.9:0")::get, Map.of("plain", "PLAIN"));

        assertThat(counts.open("plain", "10.0.0.1", limits)).isTrue();
        assertThat(counts.open("plain", "10.0.0.1", limits)).isTrue();
        assertThat(counts.open("plain", "10.0.0.1", limits)).isFalse();
        assertThat(counts.open("plain", "10.0.0.2", limits)).as("another IP has its own count").isTrue();
        assertThat(counts.open("plain", "10.0.0.9", limits)).as("an override of 0 refuses every one").isFalse();
        assertThat(counts.fromIp("10.0.0.1")).isEqualTo(2);
        assertThat(counts.total()).isEqualTo(3);

        counts.close("plain", "10.0.0.1");
        assertThat(counts.open("plain", "10.0.0.1", limits)).isTrue();
    }

    @Test
    void aSlotNeedsRoomOnTheListenerAndOnTheBroker() {
        ConnectionLimits limits = ConnectionLimits.of(Map.of("max.connections", "3",
                "listener.name.ext.max.connections", "1")::get, Map.of("plain", "PLAIN", "ext", "EXT"));

        assertThat(counts.slotAvailable("ext", limits)).isTrue();
        counts.open("ext", "10.0.0.1", limits);
        assertThat(counts.slotAvailable("ext", limits)).as("ext holds its 1").isFalse();
        assertThat(counts.slotAvailable("plain", limits)).isTrue();
        counts.open("plain", "10.0.0.1", limits);
        counts.open("plain", "10.0.0.2", limits);
        assertThat(counts.slotAvailable("plain", limits)).as("the broker holds its 3").isFalse();

        counts.close("ext", "10.0.0.1");
        assertThat(counts.slotAvailable("plain", limits)).isTrue();
        assertThat(counts.slotAvailable("ext", limits)).isTrue();
    }
}
