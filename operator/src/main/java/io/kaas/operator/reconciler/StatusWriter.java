package io.kaas.operator.reconciler;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kaas.adapter.k8s.crd.ReadinessStatus;
import io.kaas.operator.model.ReadyCondition;
import java.time.Instant;

/**
 * Writes a kaas resource's status with optimistic concurrency: a replace of the status subresource carrying the
 * resourceVersion the reconcile read, which the API server refuses (409) if anything wrote since. A reconcile working
 * from a stale view therefore never overwrites a newer status; above all, never the topic id another reconcile stored
 * before it wrote the id's stamp to the volume. The refusal fails the reconcile, which is retried on a fresh view.
 */
public final class StatusWriter {
    private final KubernetesClient client;

    public StatusWriter(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Stores {@code status} as the status of {@code observed} (left unchanged); the stored resource. A status equal to
     * the observed one is not written again.
     */
    public <S, R extends CustomResource<?, S>> R write(R observed, S status) {
        KubernetesSerialization json = client.getKubernetesSerialization();
        if (observed.getStatus() != null && json.asJson(observed.getStatus()).equals(json.asJson(status))) {
            return observed;
        }
        R next = json.clone(observed);
        next.setStatus(status);
        return client.resource(next).updateStatus();
    }

    /**
     * Stores Ready as given, with the generation of {@code observed}, as the status of a resource whose status is its
     * Ready condition alone (KafkaUser, KafkaCluster); the stored resource.
     */
    public <R extends CustomResource<?, ReadinessStatus>> R writeReady(R observed, boolean ready, String reason,
                                                                        String message, Instant now) {
        ReadinessStatus status = new ReadinessStatus();
        status.setConditions(ReadyCondition.set(observed.getStatus() == null ? null
                : observed.getStatus().getConditions(), ready, reason, message, observed.getMetadata().getGeneration(),
                now));
        return write(observed, status);
    }
}
