package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pod readiness gate on the development API server: the broker's condition is added beside the kubelet's, flipped
 * when readiness changes, not rewritten when it does not, and waits for a pod that does not exist yet.
 */
class PartitionsReadyGateIT {
    private static final String NAMESPACE = "test";
    private static final long NOW = 1_764_000_000_000L;

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient kubernetes = apiServer.client();
    private final PartitionsReadyGate gate = new PartitionsReadyGate(kubernetes, NAMESPACE, "kaas-0", () -> NOW);

    @AfterEach
    void stop() {
        kubernetes.close();
        apiServer.close();
    }

    @Test
    void theConditionFollowsReadinessAndLeavesTheKubeletsAlone() {
        assertThat(gate.reflect(true, "no pod yet")).as("a pod that does not exist yet").isFalse();
        kubernetes.resource(new PodBuilder().withNewMetadata().withName("kaas-0").withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().addNewContainer().withName("kaas").withImage("kaas").endContainer().endSpec()
                .withNewStatus().addNewCondition().withType("ContainersReady").withStatus("True").endCondition()
                .endStatus().build()).create();

        assertThat(gate.reflect(false, "3 assigned partitions are not open yet")).isTrue();
        assertThat(conditions()).extracting(c -> c.getType() + "=" + c.getStatus())
                .containsExactly("ContainersReady=True", "kaas.rs/PartitionsReady=False");

        assertThat(gate.reflect(true, "3 assigned partitions open")).isTrue();
        PodCondition ready = conditions().get(1);
        assertThat(ready.getStatus()).isEqualTo("True");
        assertThat(ready.getMessage()).isEqualTo("3 assigned partitions open");
        assertThat(ready.getReason()).isEqualTo("PartitionsOpen");
        assertThat(ready.getLastTransitionTime()).isEqualTo("2025-11-24T16:00:00Z");
        assertThat(conditions().get(0).getType()).isEqualTo("ContainersReady");

        String version = pod().getMetadata().getResourceVersion();
        assertThat(gate.reflect(true, "still open")).isTrue();
        assertThat(pod().getMetadata().getResourceVersion()).as("unchanged readiness writes nothing").isEqualTo(version);
    }

    @Test
    void aFreshGateReadsWhatThePodAlreadyCarries() {
        kubernetes.resource(new PodBuilder().withNewMetadata().withName("kaas-0").withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().addNewContainer().withName("kaas").withImage("kaas").endContainer().endSpec()
                .withNewStatus().addNewCondition().withType(PartitionsReadyGate.CONDITION).withStatus("True")
                .endCondition().endStatus().build()).create();
        String version = pod().getMetadata().getResourceVersion();

        assertThat(gate.reflect(true, "open")).isTrue();

        assertThat(pod().getMetadata().getResourceVersion()).isEqualTo(version);
    }

    private Pod pod() {
        return kubernetes.pods().inNamespace(NAMESPACE).withName("kaas-0").get();
    }

    private List<PodCondition> conditions() {
        return pod().getStatus().getConditions();
    }
}
