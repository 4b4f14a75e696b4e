package io.kaas.operator.model.cluster;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The kinds a KafkaCluster's external listener is built from, handled as generic resources so that neither
 * cert-manager's nor Gateway API's model is a dependency (nor needs to be installed for the operator to start).
 */
public enum OwnedKind {
    SERVICE("", "v1", "Service", "services"),
    CERTIFICATE("cert-manager.io", "v1", "Certificate", "certificates"),
    TLS_ROUTE("gateway.networking.k8s.io", "v1alpha2", "TLSRoute", "tlsroutes");

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;

    OwnedKind(String group, String version, String kind, String plural) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public String kind() {
        return kind;
    }

    /** What fabric8 needs to address the kind without discovery. */
    public ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }
}
