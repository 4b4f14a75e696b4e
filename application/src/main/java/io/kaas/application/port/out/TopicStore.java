package io.kaas.application.port.out;

import io.kaas.domain.topic.Topic;
import java.util.List;

/**
 * Where topic definitions live: JSON files in the data directory (in cluster mode the shared volume,
 * which the operator alone writes from KafkaTopic resources, see {@link TopicCatalog}), memory in
 * memory mode. Writes are durable when they return.
 */
public interface TopicStore {
    List<Topic> loadAll();

    void save(Topic topic);

    void delete(Topic topic);
}
