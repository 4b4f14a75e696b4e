package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;

/** EndpointSlices shaped like the ones Kubernetes keeps for the brokers' headless Service. */
final class TestSlices {
    static final String NAMESPACE = "test";
    static final String SERVICE = "kaas";
    static final int KAFKA = 9092;
    static final int HEARTBEAT = 9093;

    private TestSlices() {
    }

    /** A slice of {@link #SERVICE} with its kafka and heartbeat ports. */
    static EndpointSlice slice(String name, Endpoint... endpoints) {
        return new EndpointSliceBuilder(bare(name, endpoints))
                .addNewPort().withName(SliceBrokers.KAFKA_PORT).withPort(KAFKA).withProtocol("TCP").endPort()
                .addNewPort().withName(SliceBrokers.HEARTBEAT_PORT).withPort(HEARTBEAT).withProtocol("TCP").endPort()
                .build();
    }

    /** A slice of {@link #SERVICE} without ports. */
    static EndpointSlice bare(String name, Endpoint... endpoints) {
        return new EndpointSliceBuilder()
                .withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .addToLabels(EndpointSliceBrokerRegistry.SERVICE_NAME_LABEL, SERVICE).endMetadata()
                .withAddressType("IPv4")
                .withEndpoints(List.of(endpoints))
                .build();
    }

    /** The endpoint of StatefulSet pod {@code kaas-<ordinal>}, with a hostname as a headless Service gives it. */
    static Endpoint pod(int ordinal, boolean ready) {
        return new EndpointBuilder(podWithoutHostname(ordinal, ready)).withHostname("kaas-" + ordinal).build();
    }

    static Endpoint podWithoutHostname(int ordinal, boolean ready) {
        return new EndpointBuilder()
                .withAddresses("10.0.0." + (10 + ordinal))
                .withNewConditions().withReady(ready).endConditions()
                .withNewTargetRef().withKind("Pod").withName("kaas-" + ordinal).withNamespace(NAMESPACE).endTargetRef()
                .build();
    }

    /** The stable DNS name of pod {@code kaas-<ordinal>} under {@link #SERVICE}. */
    static String host(int ordinal) {
        return "kaas-" + ordinal + "." + SERVICE + "." + NAMESPACE + ".svc";
    }
}
