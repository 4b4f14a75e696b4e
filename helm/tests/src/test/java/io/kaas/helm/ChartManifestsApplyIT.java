package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A smoke test that the chart renders well-formed API objects: the CRDs first, then every object helm template
 * renders (every optional part on), created one by one in fabric8's mock API server in CRUD mode and read back.
 */
class ChartManifestsApplyIT {
    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void startApiServer() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stopApiServer() {
        client.close();
        server.destroy();
    }

    @Test
    void theCrdsAndEveryRenderedObjectAreAcceptedAndReadBackUnchanged() throws IOException {
        List<CustomResourceDefinition> crds = chartCrds();
        assertThat(crds).extracting(crd -> crd.getMetadata().getName())
                .containsExactlyInAnyOrder("kafkaclusters.kaas.rs", "kafkatopics.kaas.rs", "kafkausers.kaas.rs");
        for (CustomResourceDefinition crd : crds) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }

        List<HasMetadata> rendered = Chart.withDefaults().valuesFile("everything.yaml").render().all();
        assertThat(rendered).extracting(HasMetadata::getKind).contains("StatefulSet", "Deployment", "Service",
                "PersistentVolumeClaim", "PodDisruptionBudget", "ServiceAccount", "Role", "RoleBinding");
        for (HasMetadata object : rendered) {
            HasMetadata created = client.resource(object).inNamespace(Chart.NAMESPACE).create();
            assertThat(created.getMetadata().getUid()).as("%s/%s created", object.getKind(),
                    object.getMetadata().getName()).isNotBlank();
        }

        for (HasMetadata object : rendered) {
            HasMetadata stored = client.resource(object).inNamespace(Chart.NAMESPACE).get();
            assertThat(stored).as("%s/%s stored", object.getKind(), object.getMetadata().getName()).isNotNull();
            assertThat(stored.getMetadata().getLabels()).isEqualTo(object.getMetadata().getLabels());
        }
        assertThat(client.apps().statefulSets().inNamespace(Chart.NAMESPACE).withName("kaas").get().getSpec())
                .isEqualTo(((StatefulSet) rendered.stream().filter(StatefulSet.class::isInstance).findFirst()
                        .orElseThrow()).getSpec());
        assertThat(client.rbac().roles().inNamespace(Chart.NAMESPACE).list().getItems()).extracting(Role::getRules)
                .hasSize(2).allSatisfy(rules -> assertThat(rules).isNotEmpty());
        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems()).hasSize(3);
    }

    private List<CustomResourceDefinition> chartCrds() throws IOException {
        try (Stream<Path> files = Files.list(Chart.DIR.resolve("crds"))) {
            return files.filter(file -> file.toString().endsWith(".yml")).sorted().map(file -> {
                try (InputStream in = Files.newInputStream(file)) {
                    return (CustomResourceDefinition) client.load(in).items().get(0);
                } catch (IOException e) {
                    throw new IllegalStateException(file + ": " + e.getMessage(), e);
                }
            }).toList();
        }
    }
}
