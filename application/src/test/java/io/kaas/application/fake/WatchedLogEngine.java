package io.kaas.application.fake;

import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;

/**
 * A log engine whose logs report every call they answered to {@link #answered}: how tests see what
 * the services do to the logs (which reads, which config updates) without a mock. Subclasses
 * override {@link #answered}, and may refuse or track opens and deletions by overriding
 * {@link #open} and {@link #deletePartition}.
 */
public abstract class WatchedLogEngine implements LogEngine {
    private final LogEngine delegate;

    protected WatchedLogEngine(LogEngine delegate) {
        this.delegate = delegate;
    }

    /** Called after a log answered a call, with the log's partition, the method's name and its arguments. */
    protected abstract void answered(TopicPartition partition, String method, Object[] args);

    @Override
    public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
        return watched(partition, delegate.open(topic, partition, config));
    }

    @Override
    public PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch) {
        return watched(partition, delegate.takeOver(topic, partition, config, leaderEpoch));
    }

    @Override
    public void relinquish(TopicPartition partition) {
        delegate.relinquish(partition);
    }

    private PartitionLog watched(TopicPartition partition, PartitionLog log) {
        return (PartitionLog) Proxy.newProxyInstance(PartitionLog.class.getClassLoader(),
                new Class<?>[] {PartitionLog.class}, (proxy, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(log, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    answered(partition, method.getName(), args);
                    return answer;
                });
    }

    @Override
    public void abandon(TopicPartition partition) {
        delegate.abandon(partition);
    }

    @Override
    public void deletePartition(TopicPartition partition) {
        delegate.deletePartition(partition);
    }

    @Override
    public List<LogDir> logDirs() {
        return delegate.logDirs();
    }

    @Override
    public Optional<String> logDirOf(TopicPartition partition) {
        return delegate.logDirOf(partition);
    }

    @Override
    public KafkaError moveLog(TopicPartition partition, String destination, LogSwap swap) {
        return delegate.moveLog(partition, destination, swap);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
