package io.kaas.bootstrap;

import io.kaas.adapter.k8s.ArgoCdAnnotations;
import java.util.Optional;

/**
 * Cluster mode, from the pod's environment: set when {@code MY_POD_NAME} is (a StatefulSet pod),
 * absent for the standalone broker.
 *
 * @param podName              {@code MY_POD_NAME}: {@code <statefulset>-<ordinal>}; the ordinal is the broker id,
 *                             the name its identity in the controller Lease
 * @param namespace            {@code KAAS_NAMESPACE}, else {@code MY_POD_NAMESPACE} (default)
 * @param headlessService      {@code KAAS_HEADLESS_SERVICE}: the brokers' headless Service, whose EndpointSlices
 *                             list the registered brokers (kaas-brokers)
 * @param heartbeatPort        {@code KAAS_HEARTBEAT_PORT}: the heartbeat server every broker runs, the controller's
 *                             answering (9094; 0 for an ephemeral one)
 * @param leaseName            {@code KAAS_LEASE_NAME}: the controller Lease (kaas-controller)
 * @param leaseDurationSeconds {@code KAAS_LEASE_DURATION_SECONDS}: how long a controller that stops renewing keeps
 *                             the Lease (10)
 * @param heartbeatTimeoutMs   {@code KAAS_HEARTBEAT_TIMEOUT_MS}: a broker without a heartbeat this long is dead to the
 *                             controller, and a broker without the controller's acknowledgement this long stops
 *                             acknowledging writes (3000)
 * @param argoCd               {@code KAAS_ARGOCD_APPLICATION}, {@code KAAS_ARGOCD_COMPARE_OPTIONS},
 *                             {@code KAAS_ARGOCD_SYNC_OPTIONS}: the ArgoCD annotations on the KafkaTopics this broker
 *                             creates, when an Application is named
 * @param partitionsReadyGate  {@code KAAS_PARTITIONS_READY_GATE}: the broker sets the kaas.rs/PartitionsReady condition
 *                             on its own pod, the readiness gate the chart declares (false)
 */
public record ClusterSettings(String podName, String namespace, String headlessService, int heartbeatPort,
                              String leaseName, int leaseDurationSeconds, long heartbeatTimeoutMs,
                              Optional<ArgoCdAnnotations> argoCd, boolean partitionsReadyGate) {

    /** The broker id a StatefulSet pod name carries, {@code kaas-2} → 2; -1 when it carries none. */
    public static int ordinalOf(String podName) {
        int dash = podName.lastIndexOf('-');
        String digits = podName.substring(dash + 1);
        if (dash < 0 || digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 9) {
            return -1;
        }
        return Integer.parseInt(digits);
    }

    /** The pod's stable DNS name behind the headless Service: what clients are told to connect to. */
    String podHost() {
        return podName + "." + headlessService + "." + namespace + ".svc";
    }
}
