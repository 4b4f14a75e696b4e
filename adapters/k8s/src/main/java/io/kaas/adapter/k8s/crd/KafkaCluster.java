package io.kaas.adapter.k8s.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A kaas cluster's runtime plumbing ({@code kaas.rs/v1alpha1}): the external listener's Certificates, per-broker
 * Services and TLSRoutes, which the operator creates with owner references to it. Helm owns the brokers themselves and
 * templates one KafkaCluster per release.
 */
@Group(KafkaTopic.GROUP)
@Version(KafkaTopic.VERSION)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class KafkaCluster extends CustomResource<KafkaClusterSpec, ReadinessStatus> implements Namespaced {
}
