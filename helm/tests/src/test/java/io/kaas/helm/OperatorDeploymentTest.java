package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
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

    @Test
    void readinessIsReadyzAndLivenessIsHealthzOnTheOperatorsHealthPort() {
        Container operator = operator(enabled().render().get(Deployment.class, "kaas-operator"));
        ContainerPort health = operator.getPorts().stream().filter(port -> port.getName().equals("health"))
                .findFirst().orElseThrow();

        assertThat(health.getContainerPort()).isEqualTo(8081);
        assertThat(Env.of(operator).value("KAAS_OPERATOR_HEALTH_PORT")).isEqualTo("8081");
        assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        for (Probe probe : new Probe[] {operator.getReadinessProbe(), operator.getLivenessProbe()}) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("health");
            assertThat(probe.getPeriodSeconds()).isPositive();
            assertThat(probe.getTimeoutSeconds()).isPositive();
            assertThat(probe.getFailureThreshold()).isPositive();
        }
    }

    @Test
    void aMovedHealthPortAndProbeTimingsComeFromValues() {
        Container operator = operator(enabled()
                .set("operator.healthPort", 9181)
                .set("operator.livenessProbe.failureThreshold", 9)
                .set("operator.readinessProbe.periodSeconds", 4)
                .render().get(Deployment.class, "kaas-operator"));

        assertThat(operator.getPorts()).extracting(ContainerPort::getName, ContainerPort::getContainerPort)
                .containsExactly(tuple("health", 9181));
        assertThat(Env.of(operator).value("KAAS_OPERATOR_HEALTH_PORT")).isEqualTo("9181");
        assertThat(operator.getLivenessProbe().getFailureThreshold()).isEqualTo(9);
        assertThat(operator.getReadinessProbe().getPeriodSeconds()).isEqualTo(4);
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
