package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.k8s.ArgoCdAnnotations;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Cluster mode from the pod's environment; outside a pod, the standalone broker as before. */
class ClusterSettingsTest {

    @Test
    void withoutAPodNameTheBrokerIsStandalone() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_BROKER_ID", "4"));

        assertThat(config.cluster()).isEmpty();
        assertThat(config.brokerId()).isEqualTo(4);
        assertThat(config.advertisedHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void aStatefulSetPodIsAClusterBrokerNamedByItsOrdinal() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-12", "MY_POD_NAMESPACE", "streaming",
                "KAAS_HEADLESS_SERVICE", "kaas-headless", "KAAS_BIND_HOST", "0.0.0.0"));

        assertThat(config.brokerId()).isEqualTo(12);
        assertThat(config.advertisedHost()).isEqualTo("kaas-12.kaas-headless.streaming.svc");
        assertThat(config.cluster()).hasValue(new ClusterSettings("kaas-12", "streaming", "kaas-headless", 9094,
                "kaas-controller", 10, 3_000, Optional.empty(), false));
    }

    @Test
    void explicitSettingsWin() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-0", "KAAS_NAMESPACE", "a",
                "MY_POD_NAMESPACE", "b", "KAAS_ADVERTISED_HOST", "127.0.0.1", "KAAS_HEARTBEAT_PORT", "19094",
                "KAAS_LEASE_DURATION_SECONDS", "9", "KAAS_HEARTBEAT_TIMEOUT_MS", "1500"));

        assertThat(config.advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(config.cluster()).hasValue(new ClusterSettings("kaas-0", "a", "kaas-brokers", 19094, "kaas-controller", 9,
                1_500, Optional.empty(), false));
    }

    @Test
    void namingAnArgoCdApplicationAnnotatesTheKafkaTopicsBrokersCreate() {
        BrokerConfig defaults = BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-0",
                "KAAS_ARGOCD_APPLICATION", "my-kaas"));
        BrokerConfig tuned = BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-0",
                "KAAS_ARGOCD_APPLICATION", "my-kaas", "KAAS_ARGOCD_COMPARE_OPTIONS", "", "KAAS_ARGOCD_SYNC_OPTIONS",
                "Delete=false,Prune=false"));

        assertThat(defaults.cluster().orElseThrow().argoCd()).hasValue(new ArgoCdAnnotations("my-kaas",
                "IgnoreExtraneous", "Delete=false"));
        assertThat(tuned.cluster().orElseThrow().argoCd()).hasValue(new ArgoCdAnnotations("my-kaas", "",
                "Delete=false,Prune=false"));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas", "KAAS_STORAGE", "memory",
                "KAAS_LEASE_DURATION_SECONDS", "1", "KAAS_PORT", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MY_POD_NAME=kaas: expected a StatefulSet pod name ending in -<ordinal>")
                .hasMessageContaining("KAAS_STORAGE=memory")
                .hasMessageContaining("KAAS_LEASE_DURATION_SECONDS=1")
                .hasMessageContaining("KAAS_PORT and KAAS_HEARTBEAT_PORT must be fixed ports in a cluster");
    }

    @Test
    void aBrokerIdOtherThanTheOrdinalIsRefused() {
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-1", "KAAS_BROKER_ID", "2")))
                .hasMessageContaining("KAAS_BROKER_ID=2: in a cluster the broker id is the pod's ordinal (1 for kaas-1)");
        assertThat(BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-1", "KAAS_BROKER_ID", "1")).brokerId()).isOne();
    }
}
