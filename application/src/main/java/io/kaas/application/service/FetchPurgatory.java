package io.kaas.application.service;

import io.kaas.application.log.AppendListener;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fetches waiting for data, by partition (Apache's fetch purgatory). An append to a partition
 * re-checks every fetch parked on it; a parked fetch holds no thread.
 */
public final class FetchPurgatory implements AppendListener {
    private final Map<TopicPartition, Set<Waiter>> waiting = new ConcurrentHashMap<>();

    /** A parked fetch: re-reads its partitions and completes itself if it now has enough. */
    public interface Waiter {
        void recheck();
    }

    public void park(Waiter waiter, Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            waiting.compute(tp, (key, set) -> {
                Set<Waiter> waiters = set == null ? ConcurrentHashMap.newKeySet() : set;
                waiters.add(waiter);
                return waiters;
            });
        }
    }

    public void unpark(Waiter waiter, Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            waiting.computeIfPresent(tp, (key, set) -> {
                set.remove(waiter);
                return set.isEmpty() ? null : set;
            });
        }
    }

    @Override
    public void onAppend(TopicPartition partition) {
        Set<Waiter> waiters = waiting.get(partition);
        if (waiters != null) {
            for (Waiter waiter : waiters) {
                waiter.recheck();
            }
        }
    }

    /** How many fetches are parked. */
    public int size() {
        return (int) waiting.values().stream().flatMap(Set::stream).distinct().count();
    }
}
