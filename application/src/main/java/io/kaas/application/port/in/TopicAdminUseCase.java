package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Creates, grows, deletes and looks up topics. */
public interface TopicAdminUseCase {
    /** {@code numPartitions} and {@code replicationFactor} of -1 mean "the broker default". */
    int DEFAULT = -1;

    /**
     * Creates a topic, or with {@code validateOnly} checks everything a creation would (name,
     * existence, partitions, replica assignment, configs, the partition limit) and creates nothing.
     * A failed creation leaves nothing behind.
     */
    CreateResult create(CreateCommand command);

    /**
     * Grows a topic to {@code command.count()} partitions (CreatePartitions). Never shrinks; the same
     * count is INVALID_PARTITIONS, as in Apache. New partitions start empty and are served at once.
     */
    Outcome createPartitions(CreatePartitionsCommand command);

    DeleteResult deleteByName(String name);

    DeleteResult deleteById(UUID id);

    Optional<Topic> byName(String name);

    Optional<Topic> byId(UUID id);

    Collection<Topic> all();

    /**
     * @param assignments manual replica assignment, partition index to broker ids; empty for none
     */
    record CreateCommand(String name, int numPartitions, int replicationFactor,
                         Map<Integer, List<Integer>> assignments, Map<String, String> configs, boolean validateOnly) {
    }

    /** {@code topic} is the created (or, with validateOnly, the would-be) topic; null on error. */
    record CreateResult(KafkaError error, String message, Topic topic) {
    }

    /**
     * @param assignments broker ids for each new partition, or null to let the broker place them
     */
    record CreatePartitionsCommand(String name, int count, List<List<Integer>> assignments, boolean validateOnly) {
    }

    record DeleteResult(KafkaError error, String message, Topic topic) {
    }
}
