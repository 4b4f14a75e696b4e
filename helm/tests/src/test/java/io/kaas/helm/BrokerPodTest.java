package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

/** The broker StatefulSet's pods: image, probes, rollout pacing, shutdown time, and what they may do on the node. */
class BrokerPodTest {
    private static final StatefulSet DEFAULTS = Chart.withDefaults().render().get(StatefulSet.class, "kaas");

    @Test
    void theImageIsTheRepositoryAndTagFromValuesDefaultingToTheAppVersion() {
        assertThat(broker(DEFAULTS).getImage()).isEqualTo("kaas:0.1.0-SNAPSHOT");

        StatefulSet set = Chart.withDefaults()
                .set("image.repository", "registry.example.com/platform/kaas")
                .set("image.tag", "1.2.3")
                .set("image.pullPolicy", "Always")
                .render().get(StatefulSet.class, "kaas");

        assertThat(broker(set).getImage()).isEqualTo("registry.example.com/platform/kaas:1.2.3");
        assertThat(broker(set).getImagePullPolicy()).isEqualTo("Always");
    }

    @Test
    void readinessIsReadyzAndLivenessIsHealthzOnTheHealthPort() {
        Container broker = broker(DEFAULTS);
        int healthPort = containerPort(broker, "health").getContainerPort();

        assertThat(healthPort).isEqualTo(8080);
        assertThat(broker.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(broker.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        for (Probe probe : new Probe[] {broker.getReadinessProbe(), broker.getLivenessProbe()}) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("health");
        }
        assertThat(Env.of(broker).value("KAAS_HEALTH_PORT")).isEqualTo(Integer.toString(healthPort));
    }

    @Test
    void aMovedHealthPortMovesTheProbesWithIt() {
        Container broker = broker(Chart.withDefaults().set("broker.healthPort", 8181).render()
                .get(StatefulSet.class, "kaas"));

        assertThat(containerPort(broker, "health").getContainerPort()).isEqualTo(8181);
        assertThat(Env.of(broker).value("KAAS_HEALTH_PORT")).isEqualTo("8181");
    }

    @Test
    void rolloutsWaitMinReadySecondsAndShutdownOutlastsTheThirtySecondDrain() {
        assertThat(DEFAULTS.getSpec().getMinReadySeconds()).isEqualTo(60);
        assertThat(DEFAULTS.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()).isGreaterThan(30L);
        assertThat(DEFAULTS.getSpec().getUpdateStrategy().getType()).isEqualTo("RollingUpdate");

        StatefulSet tuned = Chart.withDefaults()
                .set("broker.minReadySeconds", 120)
                .set("broker.terminationGracePeriodSeconds", 90)
                .render().get(StatefulSet.class, "kaas");

        assertThat(tuned.getSpec().getMinReadySeconds()).isEqualTo(120);
        assertThat(tuned.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()).isEqualTo(90L);
    }

    @Test
    void brokersRunAsNonRootOnAReadOnlyRootFilesystemWithAWritableTmp() {
        PodSpec pod = DEFAULTS.getSpec().getTemplate().getSpec();
        Container broker = broker(DEFAULTS);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(broker.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(broker.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(broker.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(broker.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(mountPath(broker, "tmp")).isEqualTo("/tmp");
        assertThat(volume(pod, "tmp").getEmptyDir()).isNotNull();
    }

    @Test
    void theDataVolumeIsMountedWhereKaasDataDirSays() {
        PodSpec pod = DEFAULTS.getSpec().getTemplate().getSpec();

        assertThat(volume(pod, "data").getPersistentVolumeClaim().getClaimName()).isEqualTo("kaas-data");
        assertThat(mountPath(broker(DEFAULTS), "data")).isEqualTo(Env.of(broker(DEFAULTS)).value("KAAS_DATA_DIR"));
    }

    @Test
    void thePartitionsReadyGateIsDeclaredAndSetByTheBrokerUnlessDisabled() {
        assertThat(DEFAULTS.getSpec().getTemplate().getSpec().getReadinessGates())
                .extracting(PodReadinessGate::getConditionType).containsExactly("kaas.rs/PartitionsReady");
        assertThat(Env.of(broker(DEFAULTS)).value("KAAS_PARTITIONS_READY_GATE")).isEqualTo("true");

        StatefulSet ungated = Chart.withDefaults().set("broker.readinessGate.enabled", false).render()
                .get(StatefulSet.class, "kaas");

        assertThat(ungated.getSpec().getTemplate().getSpec().getReadinessGates()).isEmpty();
        assertThat(broker(ungated).getEnv()).noneMatch(env -> env.getName().equals("KAAS_PARTITIONS_READY_GATE"));
    }

    @Test
    void resourcesComeFromValues() {
        Container broker = broker(Chart.withDefaults().set("broker.resources.limits.cpu", "4").render()
                .get(StatefulSet.class, "kaas"));

        assertThat(broker.getResources().getLimits().get("cpu").toString()).isEqualTo("4");
        assertThat(broker.getResources().getLimits().get("memory").toString()).isEqualTo("2Gi");
        assertThat(broker.getResources().getRequests().get("memory").toString()).isEqualTo("1Gi");
    }

    static Container broker(StatefulSet set) {
        assertThat(set.getSpec().getTemplate().getSpec().getContainers()).extracting(Container::getName)
                .containsExactly("broker");
        return set.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    static ContainerPort containerPort(Container container, String name) {
        return container.getPorts().stream().filter(port -> name.equals(port.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no container port " + name + " in " + container.getPorts()));
    }

    private static String mountPath(Container container, String volume) {
        return container.getVolumeMounts().stream().filter(mount -> volume.equals(mount.getName()))
                .map(VolumeMount::getMountPath).findFirst()
                .orElseThrow(() -> new AssertionError("no mount of " + volume));
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(volume -> name.equals(volume.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }
}
