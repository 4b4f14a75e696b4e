package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Creates, deletes and looks up topics. */
public interface TopicAdminUseCase {
    /** {@code numPartitions} and {@code replicationFactor} of -1 mean "the broker default". */
    int DEFAULT = -1;

    CreateResult create(CreateCommand command);

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

    record DeleteResult(KafkaError error, String message, Topic topic) {
    }
}
