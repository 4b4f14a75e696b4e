package io.kaas.application.port.out;

import io.kaas.domain.topic.Topic;
import java.util.List;

/**
 * Where topic definitions live: JSON files in the data directory in standalone mode, memory in
 * memory mode, KafkaTopic resources in cluster mode. Writes are durable when they return.
 */
public interface TopicStore {
    List<Topic> loadAll();

    void save(Topic topic);

    void delete(Topic topic);
}
