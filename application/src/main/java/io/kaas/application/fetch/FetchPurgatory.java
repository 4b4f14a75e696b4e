package io.kaas.application.fetch;

import io.kaas.application.log.AppendListener;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fetches waiting for data, by partition (Apache's fetch purgatory). Every published append is
 * handed to the fetches parked on its partition, which weigh what it made readable against what
 * they wait for; a parked fetch holds no thread, and hearing of an append reads nothing.
 */
public final class FetchPurgatory implements AppendListener {
    private final Map<TopicPartition, Set<Waiter>> waiting = new ConcurrentHashMap<>();

    /**
     * A parked fetch. Both calls come on the thread that appended or deleted: they must only update
     * counters and, when the fetch is done, hand its read to another thread.
     */
    public interface Waiter {
        /** An append was published on a partition it waits on. */
        void onAppend(Append append);

        /** A partition it waits on is gone (its topic was deleted): the fetch must answer now. */
        void onGone(TopicPartition partition);
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
    public void onAppend(Append append) {
        Set<Waiter> waiters = waiting.get(append.partition());
        if (waiters != null) {
            for (Waiter waiter : waiters) {
                waiter.onAppend(append);
            }
        }
    }

    /** The partition's log was removed: the fetches parked on it answer now. */
    public void onGone(TopicPartition partition) {
        Set<Waiter> waiters = waiting.get(partition);
        if (waiters != null) {
            for (Waiter waiter : waiters) {
                waiter.onGone(partition);
            }
        }
    }

    /** How many fetches are parked. */
    public int size() {
        return (int) waiting.values().stream().flatMap(Set::stream).distinct().count();
    }
}
