package io.kaas.application.service;

import io.kaas.application.port.out.OffsetStore;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiPredicate;

/**
 * One group's committed offsets: what is durable (what OffsetFetch sees) and the changes on their
 * way to the group's file. One write runs at a time on the I/O executor and takes every change
 * queued behind it (group commit), so concurrent commits share an fsync and writes land in order.
 * A change is acknowledged only once its write is durable; a failed write fails every change it
 * carried and leaves the durable offsets as they were.
 *
 * <p>Guarded by the owning {@link GroupSlot}'s lock ({@code lock}), which writes re-take to publish.
 */
final class GroupOffsetLog {
    private final String groupId;
    private final OffsetStore store;
    private final Executor io;
    private final Object lock;
    private Map<TopicPartition, CommittedOffset> durable = Map.of();
    private String storedProtocolType;
    private final ArrayDeque<Queued> queued = new ArrayDeque<>();
    private List<Queued> writing = List.of();

    GroupOffsetLog(String groupId, OffsetStore store, Executor io, Object lock) {
        this.groupId = groupId;
        this.store = store;
        this.io = io;
        this.lock = lock;
    }

    /**
     * Takes the offsets read from the store when the group was loaded, keeping those {@code live}
     * accepts; the others leave the file with the group's next write.
     */
    void restore(OffsetStore.StoredGroup stored, BiPredicate<TopicPartition, CommittedOffset> live) {
        Map<TopicPartition, CommittedOffset> kept = new LinkedHashMap<>();
        stored.offsets().forEach((tp, offset) -> {
            if (live.test(tp, offset)) {
                kept.put(tp, offset);
            }
        });
        durable = Collections.unmodifiableMap(kept);
        storedProtocolType = stored.protocolType();
    }

    /** The durable offsets. */
    Map<TopicPartition, CommittedOffset> durable() {
        return durable;
    }

    /** The protocol type recorded in the group's file, null if none. */
    String storedProtocolType() {
        return storedProtocolType;
    }

    /** Whether a commit of {@code partition} is queued or being written. */
    boolean hasPendingCommit(TopicPartition partition) {
        return queued.stream().anyMatch(q -> q.mutation.commits(partition))
                || writing.stream().anyMatch(q -> q.mutation.commits(partition));
    }

    /**
     * Queues a change; the stage completes once it is durable (or fails with the write's error).
     *
     * @param protocolType the group's protocol type, recorded in the file (null keeps the recorded one)
     */
    CompletableFuture<Void> submit(OffsetMutation mutation, String protocolType) {
        Queued q = new Queued(mutation, protocolType, new CompletableFuture<>());
        queued.add(q);
        startWrite();
        return q.done;
    }

    private void startWrite() {
        if (!writing.isEmpty() || queued.isEmpty()) {
            return;
        }
        List<Queued> batch = new ArrayList<>(queued);
        queued.clear();
        Map<TopicPartition, CommittedOffset> next = new LinkedHashMap<>(durable);
        String protocolType = storedProtocolType;
        for (Queued q : batch) {
            q.mutation.applyTo(next);
            protocolType = q.protocolType != null ? q.protocolType : protocolType;
        }
        if (next.equals(durable) && Objects.equals(protocolType, storedProtocolType)) {
            batch.forEach(q -> q.done.complete(null)); // nothing to write (e.g. purging a topic the group never committed)
            return;
        }
        writing = batch;
        String type = protocolType;
        try {
            io.execute(() -> write(batch, next, type));
        } catch (RejectedExecutionException e) {
            writing = List.of();
            batch.forEach(q -> q.done.completeExceptionally(e));
        }
    }

    private void write(List<Queued> batch, Map<TopicPartition, CommittedOffset> next, String protocolType) {
        RuntimeException failure = null;
        try {
            if (next.isEmpty()) {
                store.delete(groupId);
            } else {
                store.save(new OffsetStore.StoredGroup(groupId, protocolType, next));
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        synchronized (lock) {
            if (failure == null) {
                durable = Collections.unmodifiableMap(next);
                storedProtocolType = protocolType;
            }
            writing = List.of();
            startWrite();
        }
        for (Queued q : batch) {
            if (failure == null) {
                q.done.complete(null);
            } else {
                q.done.completeExceptionally(failure);
            }
        }
    }

    private record Queued(OffsetMutation mutation, String protocolType, CompletableFuture<Void> done) {
    }
}
