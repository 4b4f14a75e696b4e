package io.kaas.operator.reconciler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.operator.model.cluster.ExternalAccess;
import io.kaas.operator.model.cluster.OwnedKind;
import io.kaas.operator.reconciler.StatusWriter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a KafkaCluster's external access path ({@link ExternalAccess}): per-broker Services, the cert-manager
 * Certificate and the Gateway API TLSRoutes, each owned by the KafkaCluster so Kubernetes garbage-collects them with
 * it; reports Ready with the generation it describes. Reconciled again every five minutes, which repairs what others
 * changed. No finalizer, and a resource being deleted is left alone.
 */
@ControllerConfiguration(name = KafkaClusterReconciler.NAME,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 300, timeUnit = TimeUnit.SECONDS))
public final class KafkaClusterReconciler implements Reconciler<KafkaCluster> {
    public static final String NAME = "kafkacluster";
    public static final String RECONCILED = "Reconciled";
    public static final String RECONCILE_FAILED = "ReconcileFailed";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterReconciler.class);

    private final Clock clock;

    public KafkaClusterReconciler(Clock clock) {
        this.clock = clock;
    }

    @Override
    public UpdateControl<KafkaCluster> reconcile(KafkaCluster resource, Context<KafkaCluster> context) {
        if (resource.isMarkedForDeletion()) {
            return UpdateControl.noUpdate(); // Kubernetes deletes what it owns through the owner references
        }
        StatusWriter writer = new StatusWriter(context.getClient());
        ExternalAccess.Check check = ExternalAccess.of(resource);
        if (check instanceof ExternalAccess.Invalid invalid) {
            LOG.info("KafkaCluster {}/{} refused: {}", resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(), invalid.refusal().message());
            report(writer, resource, false, invalid.refusal().reason(), invalid.refusal().message());
            return UpdateControl.noUpdate();
        }
        Map<OwnedKind, List<GenericKubernetesResource>> desired = ((ExternalAccess.Valid) check).resources();
        OwnedResources owned = new OwnedResources(context.getClient());
        desired.forEach((kind, resources) -> owned.converge(resource, kind, resources));
        String summary = desired.entrySet().stream()
                .map(kind -> kind.getValue().size() + " " + kind.getKey().kind() + (kind.getValue().size() == 1 ? ""
                        : "s"))
                .collect(Collectors.joining(", "));
        report(writer, resource, true, RECONCILED, "external access: " + summary);
        return UpdateControl.noUpdate();
    }

    /** Ready=False with the failure (cert-manager or Gateway API not installed, say); retried. */
    @Override
    public ErrorStatusUpdateControl<KafkaCluster> updateErrorStatus(KafkaCluster resource,
                                                                    Context<KafkaCluster> context, Exception e) {
        LOG.warn("KafkaCluster {}/{}: reconcile failed; retrying", resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), e);
        try {
            report(new StatusWriter(context.getClient()), resource, false, RECONCILE_FAILED,
                    String.valueOf(e.getMessage()));
        } catch (KubernetesClientException writeFailed) {
            LOG.debug("KafkaCluster {}: the failure could not be reported", resource.getMetadata().getName(),
                    writeFailed);
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    private void report(StatusWriter writer, KafkaCluster resource, boolean ready, String reason, String message) {
        writer.writeReady(resource, ready, reason, message, clock.instant());
    }
}
