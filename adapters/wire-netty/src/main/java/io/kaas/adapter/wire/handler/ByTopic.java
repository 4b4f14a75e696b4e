package io.kaas.adapter.wire.handler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Kafka's responses list partitions under their topic; the use cases answer per partition. This is
 * the regrouping the handlers share: one topic entry per topic, in the order the topics first
 * appear, holding its partitions' entries in result order.
 */
final class ByTopic {
    private ByTopic() {
    }

    /**
     * The topic entries for {@code results}: {@code newTopic} makes a topic's entry the first time
     * {@code topicOf} names it, and {@code addPartition} adds each result to its topic's entry.
     */
    static <R, T> List<T> group(Iterable<R> results, Function<R, String> topicOf, Function<String, T> newTopic,
                                BiConsumer<T, R> addPartition) {
        Map<String, T> topics = new LinkedHashMap<>();
        for (R result : results) {
            addPartition.accept(topics.computeIfAbsent(topicOf.apply(result), newTopic), result);
        }
        return new ArrayList<>(topics.values());
    }
}
