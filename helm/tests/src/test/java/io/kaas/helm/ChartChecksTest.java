package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What the schema cannot say, the chart checks while rendering, and says which value is wrong. */
class ChartChecksTest {

    @Test
    void aListenerOnTheHeartbeatPortIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().set("broker.heartbeatPort", 9092).renderYaml())
                .hasMessageContaining("listener plain's port 9092 is taken (broker.heartbeatPort)");
    }

    @Test
    void twoListenersOnOnePortAreRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("listeners-sharing-a-port.yaml").renderYaml())
                .hasMessageContaining("listener second's port 9092 is taken (listener plain)");
    }

    @Test
    void aListenerNamedLikeAReservedPortIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("listener-named-heartbeat.yaml").renderYaml())
                .hasMessageContaining("the name \"heartbeat\" is taken (broker.heartbeatPort)");
    }

    @Test
    void noEnabledListenerIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("no-enabled-listener.yaml").renderYaml())
                .hasMessageContaining("at least one listener must be enabled");
    }

    @Test
    void aCertificateOnAPlaintextListenerIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("certificate-on-plaintext-listener.yaml").renderYaml())
                .hasMessageContaining("listener plain has certificate.secretName but tls: false");
    }

    @Test
    void aPoolMemberNamedDefaultIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults()
                .set("storage.pool[0].name", "default").set("storage.pool[0].size", "1Gi").renderYaml())
                .hasMessageContaining("storage.pool: the name \"default\" is taken (the data volume)");
    }
}
