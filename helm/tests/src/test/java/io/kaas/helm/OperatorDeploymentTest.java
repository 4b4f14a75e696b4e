package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

/**
 * The operator Deployment: off by default (its orphan sweep would remove the topics brokers create today), and when
 * on, configured as OperatorMain reads it, non-root on a read-only root filesystem.
 */
class OperatorDeploymentTest {

    @Test
    void theOperatorIsNotDeployedByDefault() {
        assertThat(Chart.withDefaults().render().all(Deployment.class)).isEmpty();
    }

    @Test
    void itGetsTheEnvironmentOperatorMainReads() {
        Deployment deployment = enabled().set("operator.replicaCount", 2).render().get(Deployment.class, "kaas-operator");
        Env env = Env.of(operator(deployment));

        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(env.fieldPath("MY_POD_NAME")).isEqualTo("metadata.name");
        assertThat(env.fieldPath("MY_POD_NAMESPACE")).isEqualTo("metadata.namespace");
        assertThat(env.value("KAAS_OPERATOR_LEASE_NAME")).isEqualTo("kaas-operator");
        assertThat(env.value("KAAS_DATA_DIR")).isEqualTo("/data");
    }

    @Test
    void theImageIsTheOperatorsRepositoryAndTagFromValues() {
        assertThat(operator(enabled().render().get(Deployment.class, "kaas-operator")).getImage())
                .isEqualTo("kaas-operator:0.1.0-SNAPSHOT");

        Container operator = operator(enabled()
                .set("operator.image.repository", "registry.example.com/platform/kaas-operator")
                .set("operator.image.tag", "1.2.3")
                .render().get(Deployment.class, "kaas-operator"));

        assertThat(operator.getImage()).isEqualTo("registry.example.com/platform/kaas-operator:1.2.3");
    }

    @Test
    void itRunsAsNonRootOnAReadOnlyRootFilesystemWithAWritableTmp() {
        Deployment deployment = enabled().render().get(Deployment.class, "kaas-operator");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container operator = operator(deployment);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(operator.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(operator.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(operator.getVolumeMounts()).anySatisfy(mount -> {
            assertThat(mount.getMountPath()).isEqualTo("/tmp");
            assertThat(pod.getVolumes()).anySatisfy(volume -> {
                assertThat(volume.getName()).isEqualTo(mount.getName());
                assertThat(volume.getEmptyDir()).isNotNull();
            });
        });
    }

    private static Chart enabled() {
        return Chart.withDefaults().set("operator.enabled", true);
    }

    private static Container operator(Deployment deployment) {
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers()).extracting(Container::getName)
                .containsExactly("operator");
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }
}
