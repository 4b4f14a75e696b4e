package io.kaas.application.cluster;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.PartitionLeadershipUseCase;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elections and reassignments on a cluster whose partitions each have one replica, their leader.
 * Apache's answers for that shape: an election is never needed, a reassignment onto the current
 * replica set completes at once, anything naming an unknown broker is an invalid assignment.
 */
public final class PartitionLeadershipService implements PartitionLeadershipUseCase {
    private static final Outcome UNKNOWN_PARTITION = new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
            "The partition does not exist.");
    private static final Outcome NOT_NEEDED = new Outcome(KafkaError.ELECTION_NOT_NEEDED,
            "Leader election not needed for topic partition.");

    private final TopicService topics;
    private final ClusterUseCase cluster;

    public PartitionLeadershipService(TopicService topics, ClusterUseCase cluster) {
        this.topics = topics;
        this.cluster = cluster;
    }

    @Override
    public Map<TopicPartition, Outcome> electLeaders(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Outcome> results = new LinkedHashMap<>();
        if (partitions == null) {
            return results; // every partition's leader is its only replica: nothing to report
        }
        for (TopicPartition tp : partitions) {
            results.put(tp, exists(tp) ? NOT_NEEDED : UNKNOWN_PARTITION);
        }
        return results;
    }

    @Override
    public Map<TopicPartition, Outcome> reassign(Map<TopicPartition, List<Integer>> targets) {
        Map<TopicPartition, Outcome> results = new LinkedHashMap<>();
        targets.forEach((tp, replicas) -> results.put(tp, reassignOne(tp, replicas)));
        return results;
    }

    private Outcome reassignOne(TopicPartition tp, List<Integer> replicas) {
        if (!exists(tp)) {
            return UNKNOWN_PARTITION;
        }
        if (replicas == null) {
            return new Outcome(KafkaError.NO_REASSIGNMENT_IN_PROGRESS, "No reassignment is in progress for " + tp + ".");
        }
        if (replicas.isEmpty()) {
            return new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT, "The replica list cannot be empty.");
        }
        Set<Integer> seen = new HashSet<>();
        Set<Integer> registered = new HashSet<>();
        cluster.brokers().forEach(b -> registered.add(b.id()));
        for (int broker : replicas) {
            if (!seen.add(broker)) {
                return new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes the broker " + broker + " more than once.");
            }
            if (!registered.contains(broker)) {
                return new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes broker "
                        + broker + ", but no such broker is registered.");
            }
        }
        int leader = cluster.leaderOf(tp.topic(), tp.partition());
        if (!replicas.equals(List.of(leader))) {
            // One writer per partition: a partition has exactly one replica, and moving it is a controller decision.
            return new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT, "A kaas partition has one replica, its leader (broker "
                    + leader + "); the requested replicas " + replicas + " cannot be assigned.");
        }
        return Outcome.OK;
    }

    @Override
    public Map<TopicPartition, List<Integer>> ongoingReassignments(Collection<TopicPartition> partitions) {
        return Map.of();
    }

    private boolean exists(TopicPartition tp) {
        return topics.byName(tp.topic()).filter(t -> t.hasPartition(tp.partition())).isPresent();
    }
}
