package io.kaas.application.topic;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreatePartitionsCommand;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Apache's checks on CreateTopics and CreatePartitions, in Apache's order and with its messages: what a request must
 * satisfy before anything is written, whoever writes it (the broker's own store standalone, the catalog in a cluster).
 */
final class TopicAdminRules {
    private final BrokerSettings settings;
    private final Supplier<BrokerConfigs> brokerConfigs;
    private final IntPredicate isBroker;

    /**
     * @param brokerConfigs the broker's configs as they stand, where topic configs take their defaults from
     * @param isBroker      whether an id names a broker a manual assignment may use
     */
    TopicAdminRules(BrokerSettings settings, Supplier<BrokerConfigs> brokerConfigs, IntPredicate isBroker) {
        this.settings = settings;
        this.brokerConfigs = brokerConfigs;
        this.isBroker = isBroker;
    }

    /**
     * A creation checked: the partition count it gets, or why it is refused.
     *
     * @param refusal the error and Apache's message; empty when the creation may go ahead
     */
    record Checked(Optional<Outcome> refusal, int partitions) {
        static Checked refused(KafkaError error, String message) {
            return new Checked(Optional.of(new Outcome(error, message)), 0);
        }

        static Checked refused(Outcome outcome) {
            return new Checked(Optional.of(outcome), 0);
        }
    }

    /** Checks {@code command} against the topics {@code existing} names. */
    Checked create(CreateCommand command, Collection<String> existing) {
        String name = command.name();
        Optional<String> illegal = TopicNames.validate(name);
        if (illegal.isPresent()) {
            return Checked.refused(KafkaError.INVALID_TOPIC_EXCEPTION, illegal.get());
        }
        if (existing.contains(name)) {
            return Checked.refused(KafkaError.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        for (String other : existing) {
            if (TopicNames.collide(name, other)) {
                return Checked.refused(KafkaError.INVALID_TOPIC_EXCEPTION, "Topic '" + name
                        + "' collides with existing topic: " + other);
            }
        }
        try {
            TopicConfigs.validate(command.configs(), brokerConfigs.get().topicDefaults());
        } catch (KafkaException e) {
            return Checked.refused(e.error(), e.getMessage());
        }
        int partitions;
        if (command.assignments().isEmpty()) {
            if (command.replicationFactor() < TopicAdminUseCase.DEFAULT || command.replicationFactor() == 0) {
                return Checked.refused(KafkaError.INVALID_REPLICATION_FACTOR,
                        "Replication factor must be larger than 0, or -1 to use the default value.");
            }
            if (command.numPartitions() < TopicAdminUseCase.DEFAULT || command.numPartitions() == 0) {
                return Checked.refused(KafkaError.INVALID_PARTITIONS,
                        "Number of partitions was set to an invalid non-positive value.");
            }
            partitions = command.numPartitions() == TopicAdminUseCase.DEFAULT ? settings.defaultPartitions()
                    : command.numPartitions();
        } else {
            Optional<Outcome> invalid = invalidAssignment(command);
            if (invalid.isPresent()) {
                return Checked.refused(invalid.get());
            }
            partitions = command.assignments().size();
        }
        Optional<Outcome> tooMany = beyondLimit(name, partitions);
        return tooMany.map(Checked::refused).orElseGet(() -> new Checked(Optional.empty(), partitions));
    }

    /** Why {@code topic} cannot grow as {@code command} asks, or empty when it may. */
    Optional<Outcome> grow(Topic topic, CreatePartitionsCommand command) {
        int current = topic.partitionCount();
        if (command.count() == current) {
            return Optional.of(new Outcome(KafkaError.INVALID_PARTITIONS, "Topic already has " + current
                    + " partition(s)."));
        }
        if (command.count() < current) {
            return Optional.of(new Outcome(KafkaError.INVALID_PARTITIONS, "The topic " + topic.name() + " currently has "
                    + current + " partition(s); " + command.count() + " would not be an increase."));
        }
        int additional = command.count() - current;
        if (command.assignments() != null) {
            if (command.assignments().size() != additional) {
                return Optional.of(new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + additional
                        + " additional partition(s), but only " + command.assignments().size()
                        + " assignment(s) were specified."));
            }
            Optional<Outcome> invalid = ReplicaAssignments.validate(command.assignments(), isBroker, OptionalInt.of(1));
            if (invalid.isPresent()) {
                return invalid;
            }
        }
        return beyondLimit(topic.name(), command.count());
    }

    private Optional<Outcome> invalidAssignment(CreateCommand command) {
        if (command.replicationFactor() != TopicAdminUseCase.DEFAULT) {
            return Optional.of(new Outcome(KafkaError.INVALID_REQUEST,
                    "A manual partition assignment was specified, but replication factor was not set to -1."));
        }
        if (command.numPartitions() != TopicAdminUseCase.DEFAULT) {
            return Optional.of(new Outcome(KafkaError.INVALID_REQUEST,
                    "A manual partition assignment was specified, but numPartitions was not set to -1."));
        }
        Map<Integer, List<Integer>> assignments = command.assignments();
        for (int p = 0; p < assignments.size(); p++) {
            if (!assignments.containsKey(p)) {
                return Optional.of(new Outcome(KafkaError.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence"));
            }
        }
        List<List<Integer>> lists = new ArrayList<>();
        for (int p = 0; p < assignments.size(); p++) {
            lists.add(assignments.get(p));
        }
        return ReplicaAssignments.validate(lists, isBroker, OptionalInt.empty());
    }

    private Optional<Outcome> beyondLimit(String topic, int partitions) {
        if (partitions <= settings.maxPartitionsPerTopic()) {
            return Optional.empty();
        }
        return Optional.of(new Outcome(KafkaError.POLICY_VIOLATION, "Topic '" + topic + "' would have " + partitions
                + " partitions, more than the " + settings.maxPartitionsPerTopic()
                + " this broker allows per topic (KAAS_MAX_PARTITIONS_PER_TOPIC)."));
    }
}
