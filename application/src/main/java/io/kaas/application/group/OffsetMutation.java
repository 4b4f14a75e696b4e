package io.kaas.application.group;

import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A change to a group's offsets, queued until a write makes it durable. */
sealed interface OffsetMutation {

    /** Applies the change to a working copy. */
    void applyTo(OffsetState offsets);

    /** Whether this change sets an offset of {@code partition} (OffsetFetch's require_stable waits for those). */
    default boolean commits(TopicPartition partition) {
        return false;
    }

    /**
     * OffsetCommit. It also supersedes what open transactions staged for these partitions: as in
     * Apache, a transaction's offset only becomes the committed one if it is newer than it, and
     * these are newer than anything staged so far.
     */
    record Commit(Map<TopicPartition, CommittedOffset> offsets) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.committed().putAll(offsets);
            current.pending().values().forEach(staged -> staged.keySet().removeAll(offsets.keySet()));
            current.pending().values().removeIf(Map::isEmpty);
        }

        @Override
        public boolean commits(TopicPartition partition) {
            return offsets.containsKey(partition);
        }
    }

    /** TxnOffsetCommit: offsets staged by a producer's transaction, invisible until it commits. */
    record Stage(long producerId, Map<TopicPartition, CommittedOffset> offsets) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.pending().computeIfAbsent(producerId, pid -> new LinkedHashMap<>()).putAll(offsets);
        }

        @Override
        public boolean commits(TopicPartition partition) {
            return offsets.containsKey(partition);
        }
    }

    /** The producer's transaction ended: its staged offsets become committed, or are dropped. */
    record EndTransaction(long producerId, boolean commit) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            Map<TopicPartition, CommittedOffset> staged = current.pending().remove(producerId);
            if (commit && staged != null) {
                current.committed().putAll(staged);
            }
        }
    }

    /** OffsetDelete. */
    record Remove(Set<TopicPartition> partitions) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.committed().keySet().removeAll(partitions);
        }
    }

    /**
     * The topic was deleted: its offsets go with it, as Apache tombstones them. Only offsets of that
     * incarnation: a topic re-created under the name meanwhile keeps its own.
     */
    record RemoveTopic(String topic, UUID topicId) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.committed().entrySet().removeIf(e -> e.getKey().topic().equals(topic) && e.getValue().belongsTo(topicId));
            current.pending().values().forEach(staged -> staged.entrySet()
                    .removeIf(e -> e.getKey().topic().equals(topic) && e.getValue().belongsTo(topicId)));
            current.pending().values().removeIf(Map::isEmpty);
        }
    }

    /** Changes nothing: writes the file as the offsets stand, after a load dropped what no longer belongs in it. */
    record Rewrite() implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
        }
    }

    /** DeleteGroups. */
    record RemoveAll() implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.committed().clear();
            current.pending().clear();
            current.setMembership(null);
        }
    }

    /** The group's stable generation to resume after a restart; null when it has none (empty or dead). */
    record Membership(GroupSnapshot snapshot) implements OffsetMutation {
        @Override
        public void applyTo(OffsetState current) {
            current.setMembership(snapshot);
        }
    }
}
