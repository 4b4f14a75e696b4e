package io.kaas.operator.reconciler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.operator.model.cluster.ExternalAccess;
import io.kaas.operator.model.cluster.OwnedKind;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings one kind of a KafkaCluster's resources to what its spec wants: creates the missing ones, merge-patches the
 * ones whose labels, owner or spec fields differ (fields the API server fills in, such as a Service's clusterIP, are
 * left alone), and deletes the ones it made for this cluster that the spec no longer wants (a smaller broker count,
 * the gateway turned off). Unchanged resources are not written.
 */
final class OwnedResources {
    private static final Logger LOG = LoggerFactory.getLogger(OwnedResources.class);

    private final KubernetesClient client;

    OwnedResources(KubernetesClient client) {
        this.client = client;
    }

    /** @return how many resources were created, patched or deleted */
    int converge(KafkaCluster cluster, OwnedKind kind, List<GenericKubernetesResource> desired) {
        NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
                Resource<GenericKubernetesResource>> resources = client.genericKubernetesResources(kind.context())
                .inNamespace(cluster.getMetadata().getNamespace());
        int changes = 0;
        for (GenericKubernetesResource want : desired) {
            GenericKubernetesResource live = resources.withName(want.getMetadata().getName()).get();
            if (live == null) {
                resources.resource(want).create();
                LOG.info("KafkaCluster {}: created {} {}", cluster.getMetadata().getName(), kind.kind(),
                        want.getMetadata().getName());
                changes++;
            } else if (differs(live, want)) {
                resources.withName(want.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(want));
                LOG.info("KafkaCluster {}: updated {} {}", cluster.getMetadata().getName(), kind.kind(),
                        want.getMetadata().getName());
                changes++;
            }
        }
        Set<String> wanted = desired.stream().map(r -> r.getMetadata().getName()).collect(Collectors.toSet());
        for (GenericKubernetesResource live : resources.withLabel(ExternalAccess.CLUSTER_LABEL,
                cluster.getMetadata().getName()).list().getItems()) {
            if (!wanted.contains(live.getMetadata().getName()) && ownedBy(live, cluster)) {
                resources.withName(live.getMetadata().getName()).delete();
                LOG.info("KafkaCluster {}: deleted {} {}, which its spec no longer asks for",
                        cluster.getMetadata().getName(), kind.kind(), live.getMetadata().getName());
                changes++;
            }
        }
        return changes;
    }

    private static boolean differs(GenericKubernetesResource live, GenericKubernetesResource want) {
        Map<String, String> labels = live.getMetadata().getLabels() == null ? Map.of() : live.getMetadata().getLabels();
        if (!labels.entrySet().containsAll(want.getMetadata().getLabels().entrySet())
                || !want.getMetadata().getOwnerReferences().equals(live.getMetadata().getOwnerReferences())) {
            return true;
        }
        Object liveSpec = live.getAdditionalProperties().get("spec");
        Map<?, ?> wantSpec = (Map<?, ?>) want.getAdditionalProperties().get("spec");
        if (!(liveSpec instanceof Map<?, ?> spec)) {
            return true;
        }
        return wantSpec.entrySet().stream().anyMatch(field -> !Objects.equals(spec.get(field.getKey()),
                field.getValue()));
    }

    private static boolean ownedBy(HasMetadata resource, KafkaCluster cluster) {
        return resource.getMetadata().getOwnerReferences().stream().anyMatch(owner ->
                cluster.getMetadata().getUid().equals(owner.getUid()));
    }
}
