package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One ReadWriteMany data volume shared by every broker and the operator, plus one per volume pool member; every claim
 * survives helm uninstall. Brokers and operator learn the pool from one variable, KAAS_VOLUME_POOL.
 */
class StorageTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDataVolumeIsOneReadWriteManyClaimKeptOnUninstall() {
        Chart.Manifests manifests = Chart.withDefaults().render();
        PersistentVolumeClaim data = manifests.get(PersistentVolumeClaim.class, "kaas-data");

        assertThat(manifests.all(PersistentVolumeClaim.class)).hasSize(1);
        assertThat(data.getSpec().getAccessModes()).containsExactly("ReadWriteMany");
        assertThat(data.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("100Gi");
        assertThat(data.getSpec().getStorageClassName()).as("the cluster's default class").isNull();
        assertThat(data.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
        assertThat(manifests.get(StatefulSet.class, "kaas").getSpec().getVolumeClaimTemplates())
                .as("no per-pod volumes: every broker mounts the shared one").isEmpty();
    }

    @Test
    void everyPoolMemberIsItsOwnClaimMountedAtVolsNameOnBrokersAndOperator() {
        Chart.Manifests manifests = Chart.withDefaults().valuesFile("everything.yaml").render();

        assertThat(manifests.all(PersistentVolumeClaim.class)).extracting(claim -> claim.getMetadata().getName())
                .containsExactlyInAnyOrder("kaas-data", "kaas-vol-bulk", "kaas-vol-premium");
        assertThat(manifests.all(PersistentVolumeClaim.class)).allSatisfy(claim -> {
            assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteMany");
            assertThat(claim.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
        });
        PersistentVolumeClaim bulk = manifests.get(PersistentVolumeClaim.class, "kaas-vol-bulk");
        assertThat(bulk.getSpec().getStorageClassName()).isEqualTo("standard-files");
        assertThat(bulk.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("500Gi");
        assertThat(manifests.get(PersistentVolumeClaim.class, "kaas-data").getSpec().getStorageClassName())
                .isEqualTo("nfs");

        Map<String, String> expected = Map.of("/data", "kaas-data", "/vols/bulk", "kaas-vol-bulk",
                "/vols/premium", "kaas-vol-premium");
        assertThat(claimsByMountPath(manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getSpec()))
                .isEqualTo(expected);
        assertThat(claimsByMountPath(manifests.get(Deployment.class, "kaas-operator").getSpec().getTemplate().getSpec()))
                .isEqualTo(expected);
    }

    @Test
    void brokersAndOperatorGetThePoolWithEachMembersMountPathAndPlacementAttributes() throws Exception {
        Chart.Manifests manifests = Chart.withDefaults().valuesFile("everything.yaml").render();
        JsonNode expected = JSON.readTree("""
                [{"name":"bulk","path":"/vols/bulk","defaultEligible":true,"cordoned":false,
                  "labels":{"class":"standard"}},
                 {"name":"premium","path":"/vols/premium","defaultEligible":false,"cordoned":true,"labels":{}}]""");

        Container broker = manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getSpec().getContainers()
                .get(0);
        Container operator = manifests.get(Deployment.class, "kaas-operator").getSpec().getTemplate().getSpec()
                .getContainers().get(0);
        assertThat(JSON.readTree(Env.of(broker).value("KAAS_VOLUME_POOL"))).isEqualTo(expected);
        assertThat(JSON.readTree(Env.of(operator).value("KAAS_VOLUME_POOL"))).isEqualTo(expected);
    }

    @Test
    void withoutAPoolNoPodIsToldOfOne() {
        Chart.Manifests manifests = Chart.withDefaults().set("operator.enabled", true).render();

        assertThat(manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getSpec().getContainers().get(0)
                .getEnv()).extracting(EnvVar::getName).doesNotContain("KAAS_VOLUME_POOL");
        assertThat(manifests.get(Deployment.class, "kaas-operator").getSpec().getTemplate().getSpec().getContainers()
                .get(0).getEnv()).extracting(EnvVar::getName).doesNotContain("KAAS_VOLUME_POOL");
    }

    /** Mount path → claim name, for the mounts of claims in the pod's only container. */
    private static Map<String, String> claimsByMountPath(PodSpec pod) {
        Map<String, String> claims = pod.getVolumes().stream().filter(volume -> volume.getPersistentVolumeClaim() != null)
                .collect(Collectors.toMap(Volume::getName, volume -> volume.getPersistentVolumeClaim().getClaimName()));
        List<VolumeMount> mounts = pod.getContainers().get(0).getVolumeMounts();
        return mounts.stream().filter(mount -> claims.containsKey(mount.getName()))
                .collect(Collectors.toMap(VolumeMount::getMountPath, mount -> claims.get(mount.getName())));
    }
}
