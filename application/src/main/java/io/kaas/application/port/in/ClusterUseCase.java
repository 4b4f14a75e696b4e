package io.kaas.application.port.in;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The cluster as clients see it: its id, its brokers, and who leads or coordinates what. */
public interface ClusterUseCase {

    String clusterId();

    Broker self();

    List<Broker> brokers();

    int controllerId();

    /** The broker leading a partition; -1 when none does yet. */
    int leaderOf(String topic, int partition);

    /**
     * The partition's leader epoch where the cluster decides it (the assignment, in cluster mode);
     * empty where the partition's own log is the authority (standalone).
     */
    default OptionalInt leaderEpochOf(String topic, int partition) {
        return OptionalInt.empty();
    }

    /**
     * The broker coordinating a consumer group: the FNV-1a hash of the group id over the registered
     * brokers, falling back into the alive ones; empty when no broker can coordinate it now.
     */
    Optional<Broker> groupCoordinator(String groupId);

    /**
     * The broker coordinating a transactional id: the coordinator of its slot (see
     * {@link #transactionSlotCoordinator}), so each slot file has one writer.
     */
    Optional<Broker> transactionCoordinator(String transactionalId);

    /**
     * The broker coordinating one of the 50 transaction slots (Apache: the leader of that
     * {@code __transaction_state} partition): the FNV-1a routing of the slot's name.
     */
    Optional<Broker> transactionSlotCoordinator(int slot);

    /** A broker as clients see it; {@code rack} is null when it has none (Apache's {@code broker.rack}). */
    record Broker(int id, String host, int port, String rack) {
        /** A broker without a rack. */
        public Broker(int id, String host, int port) {
            this(id, host, port, null);
        }
    }
}
