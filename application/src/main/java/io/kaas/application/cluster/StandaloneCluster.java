package io.kaas.application.cluster;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.domain.group.CoordinatorRouting;
import io.kaas.domain.txn.TxnSlots;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntSupplier;

/** A one-broker cluster: this broker is the controller, every partition's leader and every coordinator. */
public final class StandaloneCluster implements ClusterUseCase {
    private final String clusterId;
    private final int brokerId;
    private final String host;
    private final IntSupplier port;
    private final String rack;

    /**
     * @param port the listener's port, read on every call: with an ephemeral port it is known only
     *             once the listener is bound
     * @param rack the broker's rack, null for none
     */
    public StandaloneCluster(String clusterId, int brokerId, String host, IntSupplier port, String rack) {
        this.clusterId = clusterId;
        this.brokerId = brokerId;
        this.host = host;
        this.port = port;
        this.rack = rack;
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public Broker self() {
        return new Broker(brokerId, host, port.getAsInt(), rack);
    }

    @Override
    public List<Broker> brokers() {
        return List.of(self());
    }

    @Override
    public int controllerId() {
        return brokerId;
    }

    @Override
    public int leaderOf(String topic, int partition) {
        return brokerId;
    }

    @Override
    public Optional<Broker> groupCoordinator(String groupId) {
        return route(groupId);
    }

    @Override
    public Optional<Broker> transactionCoordinator(String transactionalId) {
        return transactionSlotCoordinator(TxnSlots.slotFor(transactionalId));
    }

    @Override
    public Optional<Broker> transactionSlotCoordinator(int slot) {
        return route(TxnSlots.slotName(slot));
    }

    /** The cluster-wide routing over a broker set of one: always this broker. */
    private Optional<Broker> route(String key) {
        OptionalInt id = CoordinatorRouting.coordinatorFor(key, List.of(brokerId), Set.of(brokerId));
        return id.isPresent() ? Optional.of(self()) : Optional.empty();
    }
}
