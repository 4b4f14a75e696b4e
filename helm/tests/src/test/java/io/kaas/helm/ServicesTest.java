package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The headless Service (the brokers' DNS names and their registry) and the bootstrap Service both select exactly the
 * broker pods; the headless one publishes only ready brokers, so its EndpointSlices carry each broker's readiness.
 */
class ServicesTest {
    private static final Chart.Manifests DEFAULTS = Chart.withDefaults().render();
    private static final Map<String, String> POD_LABELS = DEFAULTS.get(StatefulSet.class, "kaas").getSpec()
            .getTemplate().getMetadata().getLabels();

    @Test
    void theHeadlessServiceIsHeadlessAndCarriesReadiness() {
        Service headless = DEFAULTS.get(Service.class, "kaas-brokers");

        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isFalse();
        assertThat(POD_LABELS).containsAllEntriesOf(headless.getSpec().getSelector());
    }

    @Test
    void theBootstrapServiceSelectsTheBrokers() {
        Service bootstrap = DEFAULTS.get(Service.class, "kaas-bootstrap");

        assertThat(bootstrap.getSpec().getType()).isEqualTo("ClusterIP");
        assertThat(bootstrap.getSpec().getSelector()).containsEntry("app.kubernetes.io/component", "broker");
        assertThat(POD_LABELS).containsAllEntriesOf(bootstrap.getSpec().getSelector());
    }

    @Test
    void theBootstrapServiceTypeAndAnnotationsComeFromValues() {
        Service bootstrap = Chart.withDefaults()
                .set("bootstrapService.type", "LoadBalancer")
                .set("bootstrapService.annotations.service\\.beta\\.kubernetes\\.io/aws-load-balancer-internal", "true")
                .render().get(Service.class, "kaas-bootstrap");

        assertThat(bootstrap.getSpec().getType()).isEqualTo("LoadBalancer");
        assertThat(bootstrap.getMetadata().getAnnotations())
                .containsEntry("service.beta.kubernetes.io/aws-load-balancer-internal", "true");
    }

    @Test
    void theStatefulSetSelectorMatchesItsOwnPodsAndNotTheOperators() {
        StatefulSet set = Chart.withDefaults().set("operator.enabled", true).render().get(StatefulSet.class, "kaas");

        assertThat(POD_LABELS).containsAllEntriesOf(set.getSpec().getSelector().getMatchLabels());
        assertThat(set.getSpec().getSelector().getMatchLabels()).containsEntry("app.kubernetes.io/component", "broker");
    }
}
