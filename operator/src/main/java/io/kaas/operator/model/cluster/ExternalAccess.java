package io.kaas.operator.model.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kaas.adapter.k8s.crd.CertManagerIssuance;
import io.kaas.adapter.k8s.crd.ExternalListener;
import io.kaas.adapter.k8s.crd.GatewayRouting;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.operator.model.Refusal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a KafkaCluster's external listener is made of (the book's Kubernetes integration): per broker a Service that
 * selects its pod and, behind a Gateway, a TLSRoute from its hostname to that Service; a TLSRoute from the bootstrap
 * hostname to the release's bootstrap Service; and one cert-manager Certificate whose SANs are every broker's hostname
 * and the bootstrap one (re-issued when the broker count changes). Each carries an OwnerReference to the KafkaCluster,
 * so Kubernetes deletes them with it, and the labels the operator finds its own by.
 *
 * <p>The KafkaCluster is named as the release (its StatefulSet, {@code <name>-<id>} pods, and its
 * {@code <name>-bootstrap} Service), as the chart names it.
 */
public final class ExternalAccess {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String OPERATOR = "kaas-operator";
    public static final String CLUSTER_LABEL = "kaas.rs/cluster";
    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    private static final String BROKER_ID = "%d";

    private ExternalAccess() {
    }

    /** The outcome of checking a spec. */
    public sealed interface Check permits Valid, Invalid {
    }

    /** The resources to exist, by kind; every other one the operator made for this cluster is to go. */
    public record Valid(Map<OwnedKind, List<GenericKubernetesResource>> resources) implements Check {
    }

    public record Invalid(Refusal refusal) implements Check {
    }

    public static Check of(KafkaCluster cluster) {
        Map<OwnedKind, List<GenericKubernetesResource>> resources = new LinkedHashMap<>();
        for (OwnedKind kind : OwnedKind.values()) {
            resources.put(kind, new ArrayList<>());
        }
        ExternalListener external = cluster.getSpec() == null || cluster.getSpec().getListeners() == null ? null
                : cluster.getSpec().getListeners().getExternal();
        if (external == null || !Boolean.TRUE.equals(external.getEnabled())) {
            return new Valid(resources);
        }
        Integer port = external.getPort();
        if (port == null || port < 1 || port > 65535) {
            return invalid("spec.listeners.external.port must be a port number, not " + port);
        }
        String pattern = external.getHostnamePattern();
        if (pattern == null || pattern.indexOf(BROKER_ID) < 0 || pattern.indexOf(BROKER_ID) != pattern.lastIndexOf(
                BROKER_ID)) {
            return invalid("spec.listeners.external.hostnamePattern must contain %d (the broker id) once, not '"
                    + pattern + "'");
        }
        Integer replicas = cluster.getSpec().getReplicas();
        if (replicas == null || replicas < 0) {
            return invalid("spec.replicas must be the broker count, not " + replicas);
        }
        CertManagerIssuance certManager = external.getTls() == null ? null : external.getTls().getCertManager();
        boolean certificates = certManager != null && Boolean.TRUE.equals(certManager.getEnabled());
        if (certificates && (certManager.getIssuerRef() == null || blank(certManager.getIssuerRef().getName()))) {
            return invalid("spec.listeners.external.tls.certManager.issuerRef.name is required");
        }
        GatewayRouting gateway = external.getGateway();
        boolean routes = gateway != null && Boolean.TRUE.equals(gateway.getEnabled());
        if (routes && (gateway.getGatewayRef() == null || blank(gateway.getGatewayRef().getName()))) {
            return invalid("spec.listeners.external.gateway.gatewayRef.name is required");
        }

        String name = cluster.getMetadata().getName();
        String bootstrap = blank(external.getBootstrapHostname()) ? null : external.getBootstrapHostname();
        List<String> hostnames = new ArrayList<>();
        if (bootstrap != null) {
            hostnames.add(bootstrap);
            if (routes) {
                resources.get(OwnedKind.TLS_ROUTE).add(route(cluster, name + "-bootstrap", bootstrap, gateway,
                        name + "-bootstrap", port));
            }
        }
        for (int id = 0; id < replicas; id++) {
            String broker = name + "-broker-" + id;
            String hostname = pattern.replace(BROKER_ID, Integer.toString(id));
            hostnames.add(hostname);
            resources.get(OwnedKind.SERVICE).add(resource(cluster, OwnedKind.SERVICE, broker, Map.of(
                    "type", "ClusterIP",
                    "selector", Map.of(POD_NAME_LABEL, name + "-" + id),
                    "ports", List.of(Map.of("name", "external", "port", port, "targetPort", port,
                            "protocol", "TCP")))));
            if (routes) {
                resources.get(OwnedKind.TLS_ROUTE).add(route(cluster, broker, hostname, gateway, broker, port));
            }
        }
        if (certificates && !hostnames.isEmpty()) {
            String issuerKind = blank(certManager.getIssuerRef().getKind()) ? "Issuer" : certManager.getIssuerRef()
                    .getKind();
            resources.get(OwnedKind.CERTIFICATE).add(resource(cluster, OwnedKind.CERTIFICATE, certificateName(name),
                    Map.of("secretName", certificateName(name),
                            "dnsNames", List.copyOf(hostnames),
                            "issuerRef", Map.of("name", certManager.getIssuerRef().getName(), "kind", issuerKind,
                                    "group", "cert-manager.io"))));
        }
        return new Valid(resources);
    }

    /** The Certificate, and the Secret cert-manager keeps the external listener's key and certificate in. */
    public static String certificateName(String cluster) {
        return cluster + "-external-tls";
    }

    /** The OwnerReference every resource built for {@code cluster} carries. */
    public static OwnerReference owner(KafkaCluster cluster) {
        return new OwnerReferenceBuilder().withApiVersion(cluster.getApiVersion()).withKind(cluster.getKind())
                .withName(cluster.getMetadata().getName()).withUid(cluster.getMetadata().getUid())
                .withController(true).build();
    }

    private static GenericKubernetesResource route(KafkaCluster cluster, String name, String hostname,
                                                   GatewayRouting gateway, String service, int port) {
        Map<String, Object> parent = new LinkedHashMap<>();
        parent.put("group", "gateway.networking.k8s.io");
        parent.put("kind", "Gateway");
        parent.put("name", gateway.getGatewayRef().getName());
        parent.put("namespace", blank(gateway.getGatewayRef().getNamespace()) ? cluster.getMetadata().getNamespace()
                : gateway.getGatewayRef().getNamespace());
        return resource(cluster, OwnedKind.TLS_ROUTE, name, Map.of(
                "parentRefs", List.of(parent),
                "hostnames", List.of(hostname),
                "rules", List.of(Map.of("backendRefs", List.of(Map.of("name", service, "port", port))))));
    }

    private static GenericKubernetesResource resource(KafkaCluster cluster, OwnedKind kind, String name,
                                                      Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind())
                .withNewMetadata().withName(name).withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Map.of(MANAGED_BY, OPERATOR, CLUSTER_LABEL, cluster.getMetadata().getName()))
                .withOwnerReferences(owner(cluster)).endMetadata()
                .withAdditionalProperties(Map.of("spec", spec)).build();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Check invalid(String message) {
        return new Invalid(new Refusal(Refusal.INVALID_EXTERNAL_LISTENER, message));
    }
}
