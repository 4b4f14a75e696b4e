package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The brokers one EndpointSlice of the brokers' headless Service lists: one per endpoint, ready or not. A broker's id
 * is its StatefulSet ordinal ({@code kaas-2} is broker 2), read from the endpoint's hostname, else from the pod it
 * points to; its host is the pod's stable DNS name under the Service when the endpoint has a hostname, else its
 * first address.
 */
final class SliceBrokers {
    static final String KAFKA_PORT = "kafka";
    static final String HEARTBEAT_PORT = "heartbeat";

    private static final Logger LOG = LoggerFactory.getLogger(SliceBrokers.class);

    private SliceBrokers() {
    }

    static List<RegisteredBroker> of(EndpointSlice slice, String service, String namespace) {
        List<Endpoint> endpoints = listOrEmpty(slice.getEndpoints());
        if (endpoints.isEmpty()) {
            return List.of();
        }
        String sliceName = slice.getMetadata().getName();
        int kafkaPort = port(slice, KAFKA_PORT);
        int heartbeatPort = port(slice, HEARTBEAT_PORT);
        List<RegisteredBroker> brokers = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            OptionalInt id = ordinal(endpoint.getHostname());
            if (id.isEmpty() && endpoint.getTargetRef() != null) {
                id = ordinal(endpoint.getTargetRef().getName());
            }
            Optional<String> host = host(endpoint, service, namespace);
            if (id.isEmpty() || host.isEmpty()) {
                LOG.warn("EndpointSlice {} lists an endpoint that is no StatefulSet pod with an address (hostname {},"
                        + " addresses {}): not a broker", sliceName, endpoint.getHostname(), endpoint.getAddresses());
                continue;
            }
            brokers.add(new RegisteredBroker(id.getAsInt(), host.get(), kafkaPort, heartbeatPort,
                    ready(endpoint.getConditions())));
        }
        return brokers;
    }

    /** The number after the last dash of a StatefulSet pod name. */
    static OptionalInt ordinal(String podName) {
        if (podName == null) {
            return OptionalInt.empty();
        }
        String suffix = podName.substring(podName.lastIndexOf('-') + 1);
        if (suffix.isEmpty() || suffix.length() > 9 || !suffix.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(suffix));
    }

    private static Optional<String> host(Endpoint endpoint, String service, String namespace) {
        if (endpoint.getHostname() != null && !endpoint.getHostname().isEmpty()) {
            return Optional.of(endpoint.getHostname() + "." + service + "." + namespace + ".svc");
        }
        return listOrEmpty(endpoint.getAddresses()).stream().findFirst();
    }

    /** Kubernetes documents an unknown (null) readiness as ready. */
    private static boolean ready(EndpointConditions conditions) {
        return conditions == null || conditions.getReady() == null || conditions.getReady();
    }

    /** The slice's port of that name; 0 when the Service does not name one (the broker stays registered, unreachable there). */
    private static int port(EndpointSlice slice, String name) {
        Optional<Integer> port = listOrEmpty(slice.getPorts()).stream()
                .filter(p -> name.equals(p.getName()) && p.getPort() != null)
                .map(EndpointPort::getPort)
                .findFirst();
        if (port.isEmpty()) {
            LOG.warn("EndpointSlice {} has no port named {}: its brokers are listed with port 0 for it",
                    slice.getMetadata().getName(), name);
        }
        return port.orElse(0);
    }

    private static <T> List<T> listOrEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
