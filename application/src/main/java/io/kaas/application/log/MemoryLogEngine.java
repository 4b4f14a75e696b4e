package io.kaas.application.log;

import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps every partition log in the heap ({@code KAAS_STORAGE=memory}). */
public final class MemoryLogEngine implements LogEngine {
    private final AppendListener listener;
    private final LogConfig defaults;
    private final Map<TopicPartition, MemoryPartitionLog> logs = new ConcurrentHashMap<>();

    public MemoryLogEngine(AppendListener listener, LogConfig defaults) {
        this.listener = listener;
        this.defaults = defaults;
    }

    @Override
    public PartitionLog open(Topic topic, TopicPartition partition) {
        return logs.computeIfAbsent(partition, tp -> new MemoryPartitionLog(tp, listener,
                defaults.withOverrides(topic.configs())));
    }

    @Override
    public void delete(Topic topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            logs.remove(topic.partition(p));
        }
    }

    @Override
    public void close() {
        logs.clear();
    }
}
