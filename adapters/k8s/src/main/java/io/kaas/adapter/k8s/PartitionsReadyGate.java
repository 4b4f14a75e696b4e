package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kaas.application.port.out.Clock;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value #CONDITION} pod readiness gate: the broker's own pod carries the condition, True once every partition
 * the assignment gives the broker is open, so a pod whose storage is not in place stays out of its Services'
 * endpoints even while its process answers probes. The condition is written only when it changes, by a
 * read-modify-write of the pod's status (a PUT the API server refuses with 409 when the kubelet wrote in between,
 * then read and applied again) that keeps every other condition as it is.
 */
public final class PartitionsReadyGate {
    /** The condition type, as the StatefulSet's {@code readinessGates} names it. */
    public static final String CONDITION = "kaas.rs/PartitionsReady";
    private static final int CONFLICT_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(PartitionsReadyGate.class);

    private final KubernetesClient client;
    private final String namespace;
    private final String pod;
    private final Clock clock;
    /** What the pod carries as far as this broker wrote or read it; empty until known. Confined to the caller. */
    private Optional<Boolean> published = Optional.empty();

    public PartitionsReadyGate(KubernetesClient client, String namespace, String pod, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.pod = Objects.requireNonNull(pod, "pod");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Makes the pod's condition say {@code ready}, unless it already does; one thread at a time.
     *
     * @param why the condition's message
     * @return whether the pod now carries it; false when the pod or the API server could not be reached, to be
     *         called again
     */
    public boolean reflect(boolean ready, String why) {
        if (published.equals(Optional.of(ready))) {
            return true;
        }
        for (int attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
            try {
                Pod current = client.pods().inNamespace(namespace).withName(pod).get();
                if (current == null) {
                    LOG.debug("pod {}/{} not found: its {} condition waits", namespace, pod, CONDITION);
                    return false;
                }
                PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
                List<PodCondition> conditions = new ArrayList<>(status.getConditions());
                String wanted = ready ? "True" : "False";
                Optional<PodCondition> existing = conditions.stream().filter(c -> CONDITION.equals(c.getType())).findFirst();
                if (existing.isPresent() && wanted.equals(existing.get().getStatus())) {
                    published = Optional.of(ready);
                    return true;
                }
                existing.ifPresent(conditions::remove);
                conditions.add(new PodConditionBuilder().withType(CONDITION).withStatus(wanted)
                        .withReason(ready ? "PartitionsOpen" : "PartitionsPending").withMessage(why)
                        .withLastTransitionTime(Instant.ofEpochMilli(clock.nowMs()).toString()).build());
                status.setConditions(conditions);
                current.setStatus(status);
                // Carries the resourceVersion read above: refused with 409 if anything wrote since.
                client.pods().inNamespace(namespace).resource(current).updateStatus();
                published = Optional.of(ready);
                LOG.info("pod {}/{}: {}={} ({})", namespace, pod, CONDITION, wanted, why);
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    LOG.warn("cannot set {} on pod {}/{}: {}", CONDITION, namespace, pod, e.getMessage());
                    return false;
                }
            }
        }
        return false;
    }
}
