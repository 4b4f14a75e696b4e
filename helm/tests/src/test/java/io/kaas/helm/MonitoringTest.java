package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dashboard and alert files ship whole, as a sidecar-labelled ConfigMap and a PrometheusRule, when asked. */
class MonitoringTest {

    @Test
    void neitherIsRenderedByDefault() {
        Chart.Manifests manifests = Chart.withDefaults().render();

        assertThat(manifests.all()).noneMatch(o -> o.getKind().equals("PrometheusRule")
                || o.getMetadata().getName().equals("kaas-dashboards"));
    }

    @Test
    void theDashboardConfigMapHoldsTheFileUnderTheSidecarLabel() throws IOException {
        ConfigMap dashboards = Chart.withDefaults().set("monitoring.grafanaDashboard.enabled", true).render()
                .get(ConfigMap.class, "kaas-dashboards");

        assertThat(dashboards.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1")
                .containsEntry("app.kubernetes.io/instance", "kaas");
        assertThat(dashboards.getData()).containsOnlyKeys("kaas-overview.json");
        assertThat(dashboards.getData().get("kaas-overview.json"))
                .isEqualTo(Files.readString(Chart.DIR.resolve("dashboards").resolve("kaas-overview.json")));
    }

    @Test
    void thePrometheusRuleHoldsTheAlertGroupsWithTheRuleSelectorsLabels() throws IOException {
        GenericKubernetesResource rule = Chart.withDefaults().set("monitoring.prometheusRule.enabled", true)
                .set("monitoring.prometheusRule.labels.release", "prom").render()
                .get(GenericKubernetesResource.class, "kaas");
        Map<?, ?> file = Serialization.unmarshal(
                Files.readString(Chart.DIR.resolve("alerts").resolve("kaas-alerts.yaml")), Map.class);

        assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.getKind()).isEqualTo("PrometheusRule");
        assertThat(rule.getMetadata().getLabels()).containsEntry("release", "prom");
        assertThat(rule.getAdditionalProperties().get("spec")).isEqualTo(file);
    }
}
