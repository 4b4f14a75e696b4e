package io.kaas.operator.reconciler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.operator.DevApiServerHarness;
import io.kaas.operator.model.ReadyCondition;
import io.kaas.operator.model.cluster.Clusters;
import io.kaas.operator.model.cluster.OwnedKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real java-operator-sdk {@code Operator} reconciling a KafkaCluster against the development API server: the
 * Services, Certificate and TLSRoutes of its external listener as the API server stores them.
 */
class KafkaClusterReconcilerIT {
    private static final Duration NO_SWEEP_AFTER_THE_FIRST = Duration.ofHours(1);

    @TempDir
    Path data;

    private DevApiServerHarness world;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        world = new DevApiServerHarness(data);
        client = world.client();
        world.startOperator(NO_SWEEP_AFTER_THE_FIRST);
    }

    @AfterEach
    void stop() {
        world.close();
    }

    @Test
    void theExternalListenerIsBuiltFromResourcesTheClusterOwns() {
        String uid = client.resource(Clusters.external("kaas", 2)).create().getMetadata().getUid();

        assertReady(1);
        assertThat(client.services().list().getItems()).extracting(s -> s.getMetadata().getName())
                .containsExactlyInAnyOrder("kaas-broker-0", "kaas-broker-1");
        Service broker1 = client.services().withName("kaas-broker-1").get();
        assertThat(broker1.getSpec().getSelector()).isEqualTo(Map.of("statefulset.kubernetes.io/pod-name", "kaas-1"));
        assertThat(broker1.getSpec().getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getPort()).isEqualTo(9093);
            assertThat(port.getTargetPort().getIntVal()).isEqualTo(9093);
        });
        assertThat(names(OwnedKind.TLS_ROUTE)).containsExactlyInAnyOrder("kaas-bootstrap", "kaas-broker-0",
                "kaas-broker-1");
        assertThat(spec(generic(OwnedKind.TLS_ROUTE, "kaas-broker-0")).get("hostnames"))
                .isEqualTo(List.of("broker-0.kafka.example.com"));
        assertThat(spec(generic(OwnedKind.CERTIFICATE, "kaas-external-tls")).get("dnsNames")).isEqualTo(List.of(
                "kafka.example.com", "broker-0.kafka.example.com", "broker-1.kafka.example.com"));
        for (OwnedKind kind : OwnedKind.values()) {
            assertThat(all(kind)).allSatisfy(resource -> assertThat(resource.getMetadata().getOwnerReferences())
                    .singleElement().satisfies(owner -> {
                        assertThat(owner.getKind()).isEqualTo("KafkaCluster");
                        assertThat(owner.getName()).isEqualTo("kaas");
                        assertThat(owner.getUid()).isEqualTo(uid);
                    }));
        }
    }

    @Test
    void aSpecChangeUpdatesAddsAndRemovesResourcesAndKeepsWhatTheApiServerFilledIn() {
        client.resource(Clusters.external("kaas", 2)).create();
        assertReady(1);
        // What kube-apiserver assigns on create; a merge patch of the spec must keep it.
        client.services().withName("kaas-broker-0").edit(s -> new ServiceBuilder(s).editSpec()
                .withClusterIP("10.96.0.17").endSpec().build());

        cluster().edit(c -> {
            c.getSpec().setReplicas(3);
            c.getSpec().getListeners().getExternal().setPort(9443);
            c.getSpec().getListeners().getExternal().getGateway().setEnabled(false);
            return c;
        });

        assertReady(2);
        assertThat(client.services().list().getItems()).extracting(s -> s.getMetadata().getName())
                .containsExactlyInAnyOrder("kaas-broker-0", "kaas-broker-1", "kaas-broker-2");
        Service broker0 = client.services().withName("kaas-broker-0").get();
        assertThat(broker0.getSpec().getPorts()).extracting(port -> port.getPort()).containsExactly(9443);
        assertThat(broker0.getSpec().getClusterIP()).isEqualTo("10.96.0.17");
        assertThat(spec(generic(OwnedKind.CERTIFICATE, "kaas-external-tls")).get("dnsNames")).isEqualTo(List.of(
                "kafka.example.com", "broker-0.kafka.example.com", "broker-1.kafka.example.com",
                "broker-2.kafka.example.com"));
        assertThat(all(OwnedKind.TLS_ROUTE)).as("the gateway turned off").isEmpty();

        cluster().edit(c -> {
            c.getSpec().setReplicas(1);
            return c;
        });

        assertReady(3);
        assertThat(names(OwnedKind.SERVICE)).containsExactly("kaas-broker-0");
    }

    @Test
    void anInvalidExternalListenerIsRefusedAndNothingIsBuilt() {
        KafkaCluster invalid = Clusters.external("kaas", 2);
        invalid.getSpec().getListeners().getExternal().setHostnamePattern("kafka.example.com");
        client.resource(invalid).create();

        Condition refused = awaitCondition(1);
        assertThat(refused.getStatus()).isEqualTo("False");
        assertThat(refused.getReason()).isEqualTo("InvalidExternalListener");
        for (OwnedKind kind : OwnedKind.values()) {
            assertThat(all(kind)).isEmpty();
        }
    }

    private Resource<KafkaCluster> cluster() {
        return client.resources(KafkaCluster.class).withName("kaas");
    }

    private List<GenericKubernetesResource> all(OwnedKind kind) {
        return client.genericKubernetesResources(kind.context()).inNamespace(DevApiServerHarness.NAMESPACE).list()
                .getItems();
    }

    private List<String> names(OwnedKind kind) {
        return all(kind).stream().map(r -> r.getMetadata().getName()).toList();
    }

    private GenericKubernetesResource generic(OwnedKind kind, String name) {
        return client.genericKubernetesResources(kind.context()).inNamespace(DevApiServerHarness.NAMESPACE)
                .withName(name).get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    private void assertReady(long generation) {
        Condition condition = awaitCondition(generation);
        assertThat(condition.getStatus()).as(condition.getMessage()).isEqualTo("True");
        assertThat(condition.getReason()).isEqualTo("Reconciled");
    }

    private Condition awaitCondition(long generation) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> {
            KafkaCluster cluster = cluster().get();
            return cluster == null || cluster.getStatus() == null ? null
                    : ReadyCondition.of(cluster.getStatus().getConditions());
        }, c -> c != null && Long.valueOf(generation).equals(c.getObservedGeneration()));
    }
}
