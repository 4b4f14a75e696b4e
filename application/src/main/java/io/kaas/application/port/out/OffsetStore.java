package io.kaas.application.port.out;

import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where consumer groups' committed offsets live: one JSON file per group on the shared volume
 * ({@code __cluster/__consumer_offsets/<group>.json}) in standalone and cluster mode, memory in
 * memory mode. Every method may block on I/O: call it from an I/O thread, never a network one.
 */
public interface OffsetStore {

    /** The group's stored offsets, or empty if it has none. */
    Optional<StoredGroup> load(String groupId);

    /**
     * Replaces the group's stored offsets; durable when it returns (a crash afterwards keeps them).
     *
     * @throws java.io.UncheckedIOException if they could not be made durable
     */
    void save(StoredGroup group);

    /** Removes the group's offsets durably; a group with none is not an error. */
    void delete(String groupId);

    /** Every group that has stored offsets. */
    List<String> groupIds();

    /**
     * One group's file.
     *
     * @param protocolType         the group's protocol type when last written ({@code consumer}), null if it
     *                             never had members, so a group known only from this file lists as it did
     * @param pendingTransactional offsets staged by transactions that have not ended, by producer id
     *                             (TxnOffsetCommit): committed with the transaction, dropped with its abort
     * @param membership           the group's last stable generation, for a restarted coordinator to resume;
     *                             null when the group has none
     */
    record StoredGroup(String groupId, String protocolType, Map<TopicPartition, CommittedOffset> offsets,
                       Map<Long, Map<TopicPartition, CommittedOffset>> pendingTransactional,
                       GroupSnapshot membership) {
        public StoredGroup {
            offsets = Map.copyOf(offsets);
            Map<Long, Map<TopicPartition, CommittedOffset>> pending = new java.util.LinkedHashMap<>();
            pendingTransactional.forEach((pid, staged) -> pending.put(pid, Map.copyOf(staged)));
            pendingTransactional = java.util.Collections.unmodifiableMap(pending);
        }

        /** A group with no staged transactional offsets and no stored generation. */
        public StoredGroup(String groupId, String protocolType, Map<TopicPartition, CommittedOffset> offsets) {
            this(groupId, protocolType, offsets, Map.of(), null);
        }
    }
}
