package io.kaas.operator.reconciler.topic;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;

/**
 * Writes a KafkaTopic's status with optimistic concurrency: a replace of the status subresource carrying the
 * resourceVersion the reconcile read, which the API server refuses (409) if anything wrote since. A reconcile working
 * from a stale view therefore never overwrites a newer status; above all, never the topic id another reconcile stored
 * before it wrote the id's stamp to the volume. The refusal fails the reconcile, which is retried on a fresh view.
 */
final class TopicStatusWriter {
    private final KubernetesClient client;

    TopicStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Stores {@code status} as the status of {@code observed} (left unchanged); the stored resource. A status equal to
     * the observed one is not written again.
     */
    KafkaTopic write(KafkaTopic observed, KafkaTopicStatus status) {
        KubernetesSerialization json = client.getKubernetesSerialization();
        if (observed.getStatus() != null && json.asJson(observed.getStatus()).equals(json.asJson(status))) {
            return observed;
        }
        KafkaTopic next = new KafkaTopic();
        next.setMetadata(observed.getMetadata());
        next.setSpec(observed.getSpec());
        next.setStatus(status);
        return client.resource(next).updateStatus();
    }
}
