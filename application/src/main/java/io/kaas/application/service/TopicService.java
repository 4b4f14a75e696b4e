package io.kaas.application.service;

import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.out.TopicStore;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import io.kaas.domain.topic.TopicNames;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The topics this broker serves and their open partition logs. Creation and deletion are
 * serialised; lookups are lock-free.
 */
public final class TopicService implements TopicAdminUseCase {
    private final TopicStore store;
    private final LogEngine engine;
    private final BrokerSettings settings;
    private final Supplier<UUID> randomIds;
    private final Map<String, Topic> byName = new ConcurrentHashMap<>();
    private final Map<UUID, Topic> byId = new ConcurrentHashMap<>();
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    private final List<Consumer<Topic>> deletionListeners = new CopyOnWriteArrayList<>();

    public TopicService(TopicStore store, LogEngine engine, BrokerSettings settings, Supplier<UUID> randomIds) {
        this.store = store;
        this.engine = engine;
        this.settings = settings;
        this.randomIds = randomIds;
    }

    /**
     * Calls {@code listener} after each topic deletion, on the deleting thread; it must not block
     * (the group coordinator purges the topic's committed offsets this way).
     */
    public void addDeletionListener(Consumer<Topic> listener) {
        deletionListeners.add(listener);
    }

    /** Loads the stored topics and opens their logs. */
    public synchronized void start() {
        for (Topic topic : store.loadAll()) {
            register(topic);
        }
    }

    /** The open log of a partition this broker serves. */
    public Optional<PartitionLog> log(TopicPartition partition) {
        return Optional.ofNullable(logs.get(partition));
    }

    /** Every open partition log. */
    public Collection<PartitionLog> logs() {
        return List.copyOf(logs.values());
    }

    @Override
    public Optional<Topic> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    @Override
    public Optional<Topic> byId(UUID id) {
        return Optional.ofNullable(byId.get(id));
    }

    @Override
    public Collection<Topic> all() {
        return List.copyOf(byName.values());
    }

    @Override
    public synchronized CreateResult create(CreateCommand command) {
        String name = command.name();
        Optional<String> illegal = TopicNames.validate(name);
        if (illegal.isPresent()) {
            return failed(KafkaError.INVALID_TOPIC_EXCEPTION, illegal.get());
        }
        if (byName.containsKey(name)) {
            return failed(KafkaError.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        for (String existing : byName.keySet()) {
            if (TopicNames.collide(name, existing)) {
                return failed(KafkaError.INVALID_TOPIC_EXCEPTION, "Topic '" + name + "' collides with existing topic: "
                        + existing);
            }
        }
        int partitions;
        if (command.assignments().isEmpty()) {
            if (command.numPartitions() != DEFAULT && command.numPartitions() <= 0) {
                return failed(KafkaError.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.");
            }
            if (command.replicationFactor() != DEFAULT && command.replicationFactor() <= 0) {
                return failed(KafkaError.INVALID_REPLICATION_FACTOR,
                        "Replication factor must be larger than 0, or -1 to use the default value.");
            }
            partitions = command.numPartitions() == DEFAULT ? settings.defaultPartitions() : command.numPartitions();
        } else {
            Optional<String> invalid = invalidAssignment(command);
            if (invalid.isPresent()) {
                return failed(command.numPartitions() != DEFAULT || command.replicationFactor() != DEFAULT
                        ? KafkaError.INVALID_REQUEST : KafkaError.INVALID_REPLICA_ASSIGNMENT, invalid.get());
            }
            partitions = command.assignments().size();
        }
        Topic topic = new Topic(name, newTopicId(), partitions, command.configs());
        if (!command.validateOnly()) {
            store.save(topic);
            register(topic);
        }
        return new CreateResult(KafkaError.NONE, null, topic);
    }

    @Override
    public synchronized DeleteResult deleteByName(String name) {
        Topic topic = byName.get(name);
        if (topic == null) {
            return new DeleteResult(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.", null);
        }
        return delete(topic);
    }

    @Override
    public synchronized DeleteResult deleteById(UUID id) {
        Topic topic = byId.get(id);
        if (topic == null) {
            return new DeleteResult(KafkaError.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.", null);
        }
        return delete(topic);
    }

    private DeleteResult delete(Topic topic) {
        byName.remove(topic.name());
        byId.remove(topic.id());
        for (int p = 0; p < topic.partitionCount(); p++) {
            logs.remove(topic.partition(p));
        }
        engine.delete(topic); // partition data first: the stored definition is what makes the topic exist
        store.delete(topic);
        deletionListeners.forEach(listener -> listener.accept(topic));
        return new DeleteResult(KafkaError.NONE, null, topic);
    }

    private void register(Topic topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            TopicPartition tp = topic.partition(p);
            logs.put(tp, engine.open(topic, tp));
        }
        byId.put(topic.id(), topic);
        byName.put(topic.name(), topic);
    }

    private UUID newTopicId() {
        UUID id;
        do {
            id = randomIds.get();
        } while (!TopicIds.isUsable(id) || byId.containsKey(id));
        return id;
    }

    private Optional<String> invalidAssignment(CreateCommand command) {
        if (command.numPartitions() != DEFAULT || command.replicationFactor() != DEFAULT) {
            return Optional.of("Both numPartitions or replicationFactor and replicasAssignments were set. "
                    + "Both cannot be used at the same time.");
        }
        Map<Integer, List<Integer>> assignments = command.assignments();
        for (int p = 0; p < assignments.size(); p++) {
            List<Integer> replicas = assignments.get(p);
            if (replicas == null) {
                return Optional.of("Partitions must be numbered 0 to " + (assignments.size() - 1)
                        + " without gaps; partition " + p + " is missing.");
            }
            if (replicas.isEmpty()) {
                return Optional.of("The manual partition assignment includes an empty replica list.");
            }
            for (int broker : replicas) {
                if (broker != settings.brokerId()) {
                    return Optional.of("The manual partition assignment includes broker " + broker
                            + ", but no such broker is registered.");
                }
            }
        }
        return Optional.empty();
    }

    private static CreateResult failed(KafkaError error, String message) {
        return new CreateResult(error, message, null);
    }
}
