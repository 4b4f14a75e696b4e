package io.kaas.application.cluster;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.BrokerRegistry;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.BrokerHealth;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnSlots;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The cluster as this broker answers for it: leaders, leader epochs, the controller and coordinators
 * from the assignment it serves ({@link AssignmentFollower}), endpoints from the broker registry.
 * Fenced (dead) brokers are left out of the broker list, as Apache leaves them out of Metadata;
 * before the first assignment this broker knows only itself and leads nothing.
 */
public final class AssignedCluster implements ClusterUseCase {
    private final String clusterId;
    private final Broker self;
    private final BrokerRegistry registry;
    private final AssignmentFollower follower;

    public AssignedCluster(String clusterId, Broker self, BrokerRegistry registry, AssignmentFollower follower) {
        this.clusterId = clusterId;
        this.self = self;
        this.registry = registry;
        this.follower = follower;
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public Broker self() {
        return self;
    }

    @Override
    public List<Broker> brokers() {
        Optional<Assignment> assignment = follower.current();
        List<Broker> serving = new ArrayList<>();
        for (RegisteredBroker registered : registry.brokers()) {
            if (registered.id() == self.id()) {
                serving.add(self);
            } else if (assignment.isPresent() && serving(assignment.get(), registered.id())) {
                serving.add(new Broker(registered.id(), registered.host(), registered.kafkaPort()));
            }
        }
        if (serving.stream().noneMatch(b -> b.id() == self.id())) {
            serving.add(self);
        }
        return serving;
    }

    private static boolean serving(Assignment assignment, int brokerId) {
        return assignment.brokers().stream().anyMatch(row -> row.id() == brokerId && row.health() != BrokerHealth.DEAD);
    }

    @Override
    public int controllerId() {
        return follower.current().map(Assignment::controllerId).orElse(-1);
    }

    @Override
    public int leaderOf(String topic, int partition) {
        return leader(topic, partition).map(Leader::broker).orElse(-1);
    }

    @Override
    public OptionalInt leaderEpochOf(String topic, int partition) {
        return leader(topic, partition).map(l -> OptionalInt.of(l.epoch())).orElse(OptionalInt.empty());
    }

    private Optional<Leader> leader(String topic, int partition) {
        return follower.current().flatMap(a -> a.leaderOf(new TopicPartition(topic, partition)));
    }

    @Override
    public Optional<Broker> groupCoordinator(String groupId) {
        return coordinatorOf(groupId);
    }

    @Override
    public Optional<Broker> transactionCoordinator(String transactionalId) {
        return transactionSlotCoordinator(TxnSlots.slotFor(transactionalId));
    }

    @Override
    public Optional<Broker> transactionSlotCoordinator(int slot) {
        return coordinatorOf(TxnSlots.slotName(slot));
    }

    /** Empty before the first assignment or when the coordinator's endpoint is not registered: clients retry. */
    private Optional<Broker> coordinatorOf(String key) {
        Optional<Assignment> assignment = follower.current();
        if (assignment.isEmpty()) {
            return Optional.empty();
        }
        OptionalInt id = assignment.get().coordinatorOf(key);
        if (id.isEmpty()) {
            return Optional.empty();
        }
        if (id.getAsInt() == self.id()) {
            return Optional.of(self);
        }
        return registry.brokers().stream().filter(b -> b.id() == id.getAsInt()).findFirst()
                .map(b -> new Broker(b.id(), b.host(), b.kafkaPort()));
    }
}
