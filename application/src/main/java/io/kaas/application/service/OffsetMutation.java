package io.kaas.application.service;

import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.topic.TopicPartition;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A change to a group's committed offsets, queued until a write makes it durable. */
sealed interface OffsetMutation {

    void applyTo(Map<TopicPartition, CommittedOffset> offsets);

    /** Whether this change sets an offset of {@code partition} (OffsetFetch's require_stable waits for those). */
    default boolean commits(TopicPartition partition) {
        return false;
    }

    /** OffsetCommit. */
    record Commit(Map<TopicPartition, CommittedOffset> offsets) implements OffsetMutation {
        @Override
        public void applyTo(Map<TopicPartition, CommittedOffset> current) {
            current.putAll(offsets);
        }

        @Override
        public boolean commits(TopicPartition partition) {
            return offsets.containsKey(partition);
        }
    }

    /** OffsetDelete. */
    record Remove(Set<TopicPartition> partitions) implements OffsetMutation {
        @Override
        public void applyTo(Map<TopicPartition, CommittedOffset> current) {
            current.keySet().removeAll(partitions);
        }
    }

    /**
     * The topic was deleted: its offsets go with it, as Apache tombstones them. Only offsets of that
     * incarnation: a topic re-created under the name meanwhile keeps its own.
     */
    record RemoveTopic(String topic, UUID topicId) implements OffsetMutation {
        @Override
        public void applyTo(Map<TopicPartition, CommittedOffset> current) {
            current.entrySet().removeIf(e -> e.getKey().topic().equals(topic) && e.getValue().belongsTo(topicId));
        }
    }

    /** DeleteGroups. */
    record RemoveAll() implements OffsetMutation {
        @Override
        public void applyTo(Map<TopicPartition, CommittedOffset> current) {
            current.clear();
        }
    }
}
