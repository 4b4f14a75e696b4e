package io.kaas.application.service;

import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group's offsets as its file holds them: the committed ones (what OffsetFetch sees) and those
 * transactions staged with TxnOffsetCommit, by producer id, which become committed with the
 * transaction's commit and vanish with its abort (KIP-447). A mutable working copy.
 */
record OffsetState(Map<TopicPartition, CommittedOffset> committed,
                   Map<Long, Map<TopicPartition, CommittedOffset>> pending) {
    static final OffsetState EMPTY = new OffsetState(Map.of(), Map.of());

    /** A deep, mutable copy. */
    OffsetState copy() {
        Map<Long, Map<TopicPartition, CommittedOffset>> pendingCopy = new LinkedHashMap<>();
        pending.forEach((pid, offsets) -> pendingCopy.put(pid, new LinkedHashMap<>(offsets)));
        return new OffsetState(new LinkedHashMap<>(committed), pendingCopy);
    }

    /** A read-only view, for publishing. */
    OffsetState frozen() {
        Map<Long, Map<TopicPartition, CommittedOffset>> pendingView = new LinkedHashMap<>();
        pending.forEach((pid, offsets) -> pendingView.put(pid, Collections.unmodifiableMap(offsets)));
        return new OffsetState(Collections.unmodifiableMap(committed), Collections.unmodifiableMap(pendingView));
    }

    boolean isEmpty() {
        return committed.isEmpty() && pending.isEmpty();
    }

    /** Whether a transaction in progress staged an offset for {@code partition}. */
    boolean hasPendingTransactional(TopicPartition partition) {
        return pending.values().stream().anyMatch(offsets -> offsets.containsKey(partition));
    }
}
