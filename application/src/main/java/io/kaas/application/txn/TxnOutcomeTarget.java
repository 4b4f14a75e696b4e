package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a transaction's outcome must land: a partition, which gets its COMMIT or ABORT marker, or a
 * group, whose staged transactional offsets are committed or dropped. Exactly one of the two is set.
 */
record TxnOutcomeTarget(TopicPartition partition, String group) {

    static TxnOutcomeTarget of(TopicPartition partition) {
        return new TxnOutcomeTarget(partition, null);
    }

    static TxnOutcomeTarget of(String group) {
        return new TxnOutcomeTarget(null, group);
    }

    static List<TxnOutcomeTarget> all(Collection<TopicPartition> partitions, Collection<String> groups) {
        return Stream.concat(partitions.stream().map(TxnOutcomeTarget::of), groups.stream().map(TxnOutcomeTarget::of))
                .toList();
    }

    boolean isPartition() {
        return partition != null;
    }

    /** The broker that applies it: the partition's leader or the group's coordinator; -1 while there is none. */
    int ownerIn(ClusterUseCase cluster) {
        return isPartition() ? cluster.leaderOf(partition.topic(), partition.partition())
                : cluster.groupCoordinator(group).map(ClusterUseCase.Broker::id).orElse(-1);
    }

    @Override
    public String toString() {
        return isPartition() ? partition.toString() : "group " + group;
    }
}
