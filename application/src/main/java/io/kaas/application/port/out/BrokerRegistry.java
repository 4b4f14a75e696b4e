package io.kaas.application.port.out;

import java.util.List;

/**
 * The brokers the cluster is meant to have: the endpoints of the brokers' headless Service
 * (EndpointSlices), every one of them, ready or not (readiness is carried, not filtered). A broker
 * whose ordinal is absent from its slice is deregistered (scaled away); this broker is always listed
 * (a readiness blip on its own pod never makes it forget itself).
 */
public interface BrokerRegistry {

    /** Every registered broker, this one included, ordered by id. Never blocks: the adapter keeps a watched copy. */
    List<RegisteredBroker> brokers();

    /** Calls {@code listener} after every change of {@link #brokers()}, on the adapter's thread. */
    void onChange(Runnable listener);

    /**
     * @param host          where clients and peers reach it (the pod's stable DNS name, or an address)
     * @param kafkaPort     its Kafka listener
     * @param heartbeatPort its heartbeat server (listened on by whichever broker is controller)
     * @param ready         its pod's readiness, as Kubernetes reports it
     */
    record RegisteredBroker(int id, String host, int kafkaPort, int heartbeatPort, boolean ready) {
    }
}
