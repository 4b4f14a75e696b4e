package io.kaas.domain.cluster;

import io.kaas.domain.topic.TopicPartition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The controller's recompute: the next assignment from the last one, the topics and the alive-set
 * decision. Leaders come from the {@link Balancer}; explicit group coordinators are kept while their
 * broker stays registered (a group going quiet never moves its coordinator).
 */
public final class AssignmentPlanner {

    private AssignmentPlanner() {
    }

    /**
     * A partition keeps its leader epoch while its leader stays and gets the next one when it moves;
     * one placed for the first time starts at the controller epoch.
     *
     * @param previous     the last assignment on the volume; null on a new cluster
     * @param epoch        the controller's Lease epoch
     * @param topics       every topic and its partition count
     */
    public static Assignment next(Assignment previous, long epoch, int controllerId, SortedMap<String, Integer> topics,
                                  AliveSet.Decision alive) {
        Map<TopicPartition, Leader> lastLeaders = previous == null ? Map.of() : previous.leaders();
        Set<Integer> registered = alive.rows().stream().map(BrokerRow::id).collect(Collectors.toSet());
        Map<String, Integer> groups = new HashMap<>();
        if (previous != null) {
            previous.consumerGroups().forEach((group, broker) -> {
                if (registered.contains(broker)) {
                    groups.put(group, broker);
                }
            });
        }
        Map<TopicPartition, Integer> lastBrokers = new HashMap<>();
        lastLeaders.forEach((tp, leader) -> lastBrokers.put(tp, leader.broker()));
        SortedMap<TopicPartition, Leader> leaders = new TreeMap<>(Assignment.PARTITION_ORDER);
        Balancer.balance(lastBrokers, topics, alive.eligible()).forEach((tp, broker) -> {
            Leader last = lastLeaders.get(tp);
            int leaderEpoch = last == null ? (int) epoch : last.broker() == broker ? last.epoch() : last.epoch() + 1;
            leaders.put(tp, new Leader(broker, leaderEpoch));
        });
        long version = previous == null ? 1 : previous.version() + 1;
        return new Assignment(epoch, version, controllerId, alive.rows(), leaders, groups);
    }

    /**
     * Whether {@code next} says anything {@code previous} does not: another controller, leader,
     * broker state or group entry (the time a broker was last seen alone does not count).
     */
    public static boolean changes(Assignment previous, Assignment next) {
        if (previous == null) {
            return true;
        }
        return previous.controllerEpoch() != next.controllerEpoch() || previous.controllerId() != next.controllerId()
                || !previous.leaders().equals(next.leaders()) || !previous.consumerGroups().equals(next.consumerGroups())
                || !states(previous.brokers()).equals(states(next.brokers()));
    }

    private static Map<Integer, BrokerHealth> states(List<BrokerRow> rows) {
        return rows.stream().collect(Collectors.toMap(BrokerRow::id, BrokerRow::health));
    }
}
