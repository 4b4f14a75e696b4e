package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PodDisruptionBudget covers exactly the broker pods and lets one go at a time. */
class PodDisruptionBudgetTest {

    @Test
    void itSelectsTheBrokersAndNotTheOperator() {
        Chart.Manifests manifests = Chart.withDefaults().set("operator.enabled", true).render();
        PodDisruptionBudget budget = manifests.get(PodDisruptionBudget.class, "kaas");
        Map<String, String> selector = budget.getSpec().getSelector().getMatchLabels();

        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(selector);
        assertThat(manifests.get(Deployment.class, "kaas-operator").getSpec().getTemplate().getMetadata().getLabels())
                .doesNotContainEntry("app.kubernetes.io/component", selector.get("app.kubernetes.io/component"));
        assertThat(budget.getSpec().getSelector().getMatchExpressions()).isEmpty();
    }

    @Test
    void maxUnavailableComesFromValuesAndTheBudgetCanBeLeftOut() {
        assertThat(Chart.withDefaults().set("podDisruptionBudget.maxUnavailable", 2).render()
                .get(PodDisruptionBudget.class, "kaas").getSpec().getMaxUnavailable().getIntVal()).isEqualTo(2);
        assertThat(Chart.withDefaults().set("podDisruptionBudget.enabled", false).render()
                .all(PodDisruptionBudget.class)).isEmpty();
    }
}
