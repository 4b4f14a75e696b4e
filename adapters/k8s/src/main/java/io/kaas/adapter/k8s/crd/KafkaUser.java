package io.kaas.adapter.k8s.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Kafka principal ({@code User:<metadata.name>}) with its credential, ACLs and quotas, in Strimzi's KafkaUser shape
 * ({@code kaas.rs/v1alpha1}, short name {@code ku}). The operator materialises it into {@code __cluster/credentials.json}
 * and {@code __cluster/acls.json}, which brokers hot-reload.
 */
@Group(KafkaTopic.GROUP)
@Version(KafkaTopic.VERSION)
@ShortNames("ku")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class KafkaUser extends CustomResource<KafkaUserSpec, ReadinessStatus> implements Namespaced {
}
