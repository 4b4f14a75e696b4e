package io.kaas.application.memory;

import io.kaas.application.port.out.TopicStore;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Topic definitions that live as long as the process ({@code KAAS_STORAGE=memory}, tests). */
public final class InMemoryTopicStore implements TopicStore {
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    @Override
    public List<Topic> loadAll() {
        return List.copyOf(topics.values());
    }

    @Override
    public void save(Topic topic) {
        topics.put(topic.name(), topic);
    }

    @Override
    public void delete(Topic topic) {
        topics.remove(topic.name());
    }
}
