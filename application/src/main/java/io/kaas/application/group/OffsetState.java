package io.kaas.application.group;

import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A group's file content: the committed offsets (what OffsetFetch sees), those transactions staged
 * with TxnOffsetCommit, by producer id, which become committed with the transaction's commit and
 * vanish with its abort (KIP-447), and the stable generation a restarted coordinator resumes
 * (null when there is none). A mutable working copy, or a frozen published one.
 */
final class OffsetState {
    static final OffsetState EMPTY = new OffsetState(Map.of(), Map.of(), null);

    private final Map<TopicPartition, CommittedOffset> committed;
    private final Map<Long, Map<TopicPartition, CommittedOffset>> pending;
    private GroupSnapshot membership;

    OffsetState(Map<TopicPartition, CommittedOffset> committed, Map<Long, Map<TopicPartition, CommittedOffset>> pending,
                GroupSnapshot membership) {
        this.committed = committed;
        this.pending = pending;
        this.membership = membership;
    }

    Map<TopicPartition, CommittedOffset> committed() {
        return committed;
    }

    Map<Long, Map<TopicPartition, CommittedOffset>> pending() {
        return pending;
    }

    GroupSnapshot membership() {
        return membership;
    }

    void setMembership(GroupSnapshot snapshot) {
        membership = snapshot;
    }

    /** A deep, mutable copy. */
    OffsetState copy() {
        Map<Long, Map<TopicPartition, CommittedOffset>> pendingCopy = new LinkedHashMap<>();
        pending.forEach((pid, offsets) -> pendingCopy.put(pid, new LinkedHashMap<>(offsets)));
        return new OffsetState(new LinkedHashMap<>(committed), pendingCopy, membership);
    }

    /** A read-only view, for publishing. */
    OffsetState frozen() {
        Map<Long, Map<TopicPartition, CommittedOffset>> pendingView = new LinkedHashMap<>();
        pending.forEach((pid, offsets) -> pendingView.put(pid, Collections.unmodifiableMap(offsets)));
        return new OffsetState(Collections.unmodifiableMap(committed), Collections.unmodifiableMap(pendingView),
                membership);
    }

    /** Whether the group has committed or staged offsets. */
    boolean hasOffsets() {
        return !committed.isEmpty() || !pending.isEmpty();
    }

    /** Whether there is nothing to keep in a file. */
    boolean isEmpty() {
        return !hasOffsets() && membership == null;
    }

    /** Whether a transaction in progress staged an offset for {@code partition}. */
    boolean hasPendingTransactional(TopicPartition partition) {
        return pending.values().stream().anyMatch(offsets -> offsets.containsKey(partition));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OffsetState other && committed.equals(other.committed) && pending.equals(other.pending)
                && membership == other.membership;
    }

    @Override
    public int hashCode() {
        return Objects.hash(committed, pending, System.identityHashCode(membership));
    }
}
