package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps every partition log in the heap ({@code KAAS_STORAGE=memory}). */
public final class MemoryLogEngine implements LogEngine {
    /** What DescribeLogDirs calls the heap: there is no directory, and no volume to measure. */
    public static final String LOG_DIR = "memory://";

    private final AppendListener listener;
    private final Map<TopicPartition, MemoryPartitionLog> logs = new ConcurrentHashMap<>();

    public MemoryLogEngine(AppendListener listener) {
        this.listener = listener;
    }

    @Override
    public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
        return logs.computeIfAbsent(partition, tp -> new MemoryPartitionLog(tp, listener, config));
    }

    /** Memory is one broker's: there is no other leader to fence, and the epoch stays 0. */
    @Override
    public PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch) {
        return open(topic, partition, config);
    }

    /** A relinquished log in memory is gone: nothing outlives the process to hand over. */
    @Override
    public void relinquish(TopicPartition partition) {
        logs.remove(partition);
    }

    /** Memory holds no files another incarnation could find: abandoning is dropping. */
    @Override
    public void abandon(TopicPartition partition) {
        logs.remove(partition);
    }

    @Override
    public void deletePartition(TopicPartition partition) {
        logs.remove(partition);
    }

    @Override
    public List<LogDir> logDirs() {
        return List.of(new LogDir(LOG_DIR, LogDir.UNKNOWN, LogDir.UNKNOWN));
    }

    @Override
    public Optional<String> logDirOf(TopicPartition partition) {
        return logs.containsKey(partition) ? Optional.of(LOG_DIR) : Optional.empty();
    }

    /** The heap is the only log dir: nothing ever moves. */
    @Override
    public KafkaError moveLog(TopicPartition partition, String destination, LogSwap swap) {
        if (!LOG_DIR.equals(destination)) {
            return KafkaError.LOG_DIR_NOT_FOUND;
        }
        return logs.containsKey(partition) ? KafkaError.NONE : KafkaError.REPLICA_NOT_AVAILABLE;
    }

    @Override
    public void close() {
        logs.clear();
    }
}
