package io.kaas.application.cluster;

import io.kaas.application.port.in.ClusterUseCase;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;

/**
 * The cluster as one listener advertises it: every broker at its usual host, on its port for this
 * listener. Brokers register only their primary listener's port, and every broker lays its listeners
 * out alike around it: in Kubernetes one StatefulSet runs one {@code KAAS_LISTENERS}, so every port is
 * the same on every pod; on one machine ({@code dev/cluster.sh}) each broker's ports are its own but
 * equally far from its primary one. A peer's port for this listener is thus its registered port
 * shifted as far as this listener's port is from this broker's registered one. What a client gets
 * back from Metadata, FindCoordinator and DescribeCluster is the listener it came in on, and it stays there.
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
        int shift = port.getAsInt() - cluster.self().port();
        return new Broker(broker.id(), broker.host(), broker.port() + shift, broker.rack());
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
