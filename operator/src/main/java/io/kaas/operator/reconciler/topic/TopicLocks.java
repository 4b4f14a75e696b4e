package io.kaas.operator.reconciler.topic;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per topic name, held while the reconciler or the orphan sweep changes that topic's directory: the sweep
 * then never removes a directory a reconcile is creating, and a reconcile never writes into one being removed.
 */
public final class TopicLocks {
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    /** Runs {@code work} holding {@code topic}'s lock. */
    public <T> T withLock(String topic, Supplier<T> work) {
        ReentrantLock lock = locks.computeIfAbsent(topic, name -> new ReentrantLock());
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }
}
