package io.kaas.application.topic;

import io.kaas.application.port.in.Outcome;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntPredicate;

/**
 * Apache's checks on a manual replica assignment (CreateTopics and CreatePartitions): each
 * partition's list is non-empty, names registered brokers once each, and is as long as the
 * others'. In kaas every list has length one in practice, since a partition has one writer.
 */
final class ReplicaAssignments {
    private ReplicaAssignments() {
    }

    /**
     * @param replicaLists      the broker ids of each partition, in order
     * @param isBroker          whether an id names a registered broker
     * @param replicationFactor the length every list must have, if already known
     * @return INVALID_REPLICA_ASSIGNMENT with Apache's message, or empty when the assignment is valid
     */
    static Optional<Outcome> validate(List<List<Integer>> replicaLists, IntPredicate isBroker,
                                      OptionalInt replicationFactor) {
        OptionalInt expected = replicationFactor;
        for (List<Integer> replicas : replicaLists) {
            Optional<String> problem = problem(replicas, isBroker, expected);
            if (problem.isPresent()) {
                return Optional.of(new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT, problem.get()));
            }
            expected = OptionalInt.of(replicas.size());
        }
        return Optional.empty();
    }

    private static Optional<String> problem(List<Integer> replicas, IntPredicate isBroker, OptionalInt replicationFactor) {
        if (replicas.isEmpty()) {
            return Optional.of("The manual partition assignment includes an empty replica list.");
        }
        List<Integer> sorted = new ArrayList<>(replicas);
        sorted.sort(Integer::compare);
        Integer previous = null;
        for (Integer broker : sorted) {
            if (!isBroker.test(broker)) {
                return Optional.of("The manual partition assignment includes broker " + broker
                        + ", but no such broker is registered.");
            }
            if (broker.equals(previous)) {
                return Optional.of("The manual partition assignment includes the broker " + previous + " more than once.");
            }
            previous = broker;
        }
        if (replicationFactor.isPresent() && sorted.size() != replicationFactor.getAsInt()) {
            return Optional.of("The manual partition assignment includes a partition with " + sorted.size()
                    + " replica(s), but this is not consistent with previous partitions, which have "
                    + replicationFactor.getAsInt() + " replica(s).");
        }
        return Optional.empty();
    }
}
