package io.kaas.application.cluster;

import io.kaas.application.port.in.ClusterUseCase;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;

/**
 * The cluster as one listener advertises it: every broker at its usual host, on this listener's
 * port. Every broker runs the same listeners (one StatefulSet, one {@code KAAS_LISTENERS}), so a
 * peer's port for this listener is this broker's; brokers register only their primary listener's
 * port, which the primary listener advertises as registered. What a client gets back from Metadata,
 * FindCoordinator and DescribeCluster is thus the port it came in on, and it stays on its listener.
 */
public final class ListenerCluster implements ClusterUseCase {
    private final ClusterUseCase cluster;
    private final IntSupplier port;

    /** @param port the listener's port, read on every call: with an ephemeral port it is known only once bound */
    public ListenerCluster(ClusterUseCase cluster, IntSupplier port) {
        this.cluster = cluster;
        this.port = port;
    }

    private Broker here(Broker broker) {
        return new Broker(broker.id(), broker.host(), port.getAsInt(), broker.rack());
    }

    @Override
    public String clusterId() {
        return cluster.clusterId();
    }

    @Override
    public Broker self() {
        return here(cluster.self());
    }

    @Override
    public List<Broker> brokers() {
        return cluster.brokers().stream().map(this::here).toList();
    }

    @Override
    public int controllerId() {
        return cluster.controllerId();
    }

    @Override
    public int leaderOf(String topic, int partition) {
        return cluster.leaderOf(topic, partition);
    }

    @Override
    public OptionalInt leaderEpochOf(String topic, int partition) {
        return cluster.leaderEpochOf(topic, partition);
    }

    @Override
    public Optional<Broker> groupCoordinator(String groupId) {
        return cluster.groupCoordinator(groupId).map(this::here);
    }

    @Override
    public Optional<Broker> transactionCoordinator(String transactionalId) {
        return cluster.transactionCoordinator(transactionalId).map(this::here);
    }

    @Override
    public Optional<Broker> transactionSlotCoordinator(int slot) {
        return cluster.transactionSlotCoordinator(slot).map(this::here);
    }
}
