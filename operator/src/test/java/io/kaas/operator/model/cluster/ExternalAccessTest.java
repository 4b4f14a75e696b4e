package io.kaas.operator.model.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.operator.model.Refusal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalAccessTest {

    @Test
    void eachBrokerGetsAServiceForItsPodAndARouteFromItsHostname() {
        Map<OwnedKind, List<GenericKubernetesResource>> resources = valid(Clusters.external("kaas", 3));

        assertThat(resources.get(OwnedKind.SERVICE)).extracting(r -> r.getMetadata().getName())
                .containsExactly("kaas-broker-0", "kaas-broker-1", "kaas-broker-2");
        assertThat(spec(resources.get(OwnedKind.SERVICE).get(1))).isEqualTo(Map.of(
                "type", "ClusterIP",
                "selector", Map.of("statefulset.kubernetes.io/pod-name", "kaas-1"),
                "ports", List.of(Map.of("name", "external", "port", 9093, "targetPort", 9093, "protocol", "TCP"))));
        assertThat(resources.get(OwnedKind.TLS_ROUTE)).extracting(r -> r.getMetadata().getName())
                .containsExactly("kaas-bootstrap", "kaas-broker-0", "kaas-broker-1", "kaas-broker-2");
        assertThat(spec(resources.get(OwnedKind.TLS_ROUTE).get(3))).isEqualTo(Map.of(
                "parentRefs", List.of(Map.of("group", "gateway.networking.k8s.io", "kind", "Gateway",
                        "name", "public-gateway", "namespace", "gateway-system")),
                "hostnames", List.of("broker-2.kafka.example.com"),
                "rules", List.of(Map.of("backendRefs", List.of(Map.of("name", "kaas-broker-2", "port", 9093))))));
        assertThat(spec(resources.get(OwnedKind.TLS_ROUTE).get(0)).get("rules")).isEqualTo(List.of(Map.of(
                "backendRefs", List.of(Map.of("name", "kaas-bootstrap", "port", 9093)))));
    }

    @Test
    void oneCertificateCoversEveryBrokerAndTheBootstrapHostname() {
        List<GenericKubernetesResource> certificates = valid(Clusters.external("kaas", 2)).get(OwnedKind.CERTIFICATE);

        assertThat(certificates).hasSize(1);
        assertThat(certificates.get(0).getApiVersion()).isEqualTo("cert-manager.io/v1");
        assertThat(spec(certificates.get(0))).isEqualTo(Map.of(
                "secretName", "kaas-external-tls",
                "dnsNames", List.of("kafka.example.com", "broker-0.kafka.example.com", "broker-1.kafka.example.com"),
                "issuerRef", Map.of("name", "letsencrypt", "kind", "ClusterIssuer", "group", "cert-manager.io")));
    }

    @Test
    void everyResourceIsOwnedByTheClusterAndLabelledAsTheOperators() {
        KafkaCluster cluster = Clusters.external("kaas", 1);
        cluster.getMetadata().setUid("0b6f7d1c-0000-4000-8000-000000000001");

        valid(cluster).values().stream().flatMap(List::stream).forEach(resource -> {
            assertThat(resource.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
                assertThat(owner.getKind()).isEqualTo("KafkaCluster");
                assertThat(owner.getApiVersion()).isEqualTo("kaas.rs/v1alpha1");
                assertThat(owner.getUid()).isEqualTo("0b6f7d1c-0000-4000-8000-000000000001");
                assertThat(owner.getController()).isTrue();
            });
            assertThat(resource.getMetadata().getLabels()).containsEntry("kaas.rs/cluster", "kaas")
                    .containsEntry("app.kubernetes.io/managed-by", "kaas-operator");
        });
    }

    @Test
    void withoutAnEnabledExternalListenerNothingIsBuilt() {
        KafkaCluster disabled = Clusters.external("kaas", 3);
        disabled.getSpec().getListeners().getExternal().setEnabled(false);
        KafkaCluster noGatewayNoCertificates = Clusters.external("kaas", 3);
        noGatewayNoCertificates.getSpec().getListeners().getExternal().getGateway().setEnabled(false);
        noGatewayNoCertificates.getSpec().getListeners().getExternal().getTls().getCertManager().setEnabled(null);

        assertThat(valid(disabled).values()).allSatisfy(resources -> assertThat(resources).isEmpty());
        Map<OwnedKind, List<GenericKubernetesResource>> servicesOnly = valid(noGatewayNoCertificates);
        assertThat(servicesOnly.get(OwnedKind.SERVICE)).hasSize(3);
        assertThat(servicesOnly.get(OwnedKind.TLS_ROUTE)).isEmpty();
        assertThat(servicesOnly.get(OwnedKind.CERTIFICATE)).isEmpty();
    }

    @Test
    void aPatternWithoutTheBrokerIdOrAnIssuerWithoutANameIsRefused() {
        KafkaCluster noId = Clusters.external("kaas", 3);
        noId.getSpec().getListeners().getExternal().setHostnamePattern("kafka.example.com");
        KafkaCluster noIssuer = Clusters.external("kaas", 3);
        noIssuer.getSpec().getListeners().getExternal().getTls().getCertManager().getIssuerRef().setName(null);

        assertThat(refusal(noId).message()).contains("hostnamePattern must contain %d");
        assertThat(refusal(noIssuer).message()).contains("issuerRef.name is required");
        assertThat(refusal(noId).reason()).isEqualTo("InvalidExternalListener");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    private static Map<OwnedKind, List<GenericKubernetesResource>> valid(KafkaCluster cluster) {
        ExternalAccess.Check check = ExternalAccess.of(cluster);
        assertThat(check).isInstanceOf(ExternalAccess.Valid.class);
        return ((ExternalAccess.Valid) check).resources();
    }

    private static Refusal refusal(KafkaCluster cluster) {
        ExternalAccess.Check check = ExternalAccess.of(cluster);
        assertThat(check).isInstanceOf(ExternalAccess.Invalid.class);
        return ((ExternalAccess.Invalid) check).refusal();
    }
}
