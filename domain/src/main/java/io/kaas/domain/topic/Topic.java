package io.kaas.domain.topic;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A topic as the broker knows it: its name, its incarnation id (KIP-516), its partition count and
 * its configuration overrides (only the keys set explicitly; defaults are not stored).
 */
public record Topic(String name, UUID id, int partitionCount, Map<String, String> configs) {

    public Topic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be positive: " + partitionCount);
        }
        configs = Map.copyOf(configs);
    }

    public TopicPartition partition(int index) {
        return new TopicPartition(name, index);
    }

    public boolean hasPartition(int index) {
        return index >= 0 && index < partitionCount;
    }
}
