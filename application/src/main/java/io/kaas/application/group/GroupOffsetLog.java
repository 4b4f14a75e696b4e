package io.kaas.application.group;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.OffsetStore;
import io.kaas.application.task.CoalescingWriter;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiPredicate;

/**
 * One group's offsets: what is durable (what OffsetFetch sees, and what transactions staged) and
 * the changes on their way to the group's file, written by a {@link CoalescingWriter} (one write
 * at a time, carrying every change queued behind it). A change is acknowledged only once its write
 * is durable; a failed write leaves the durable offsets as they were.
 *
 * <p>Guarded by the owning {@link CoordinatedGroup}'s lock ({@code lock}).
 */
final class GroupOffsetLog implements CoalescingWriter.Target<GroupOffsetLog.Queued> {
    private final String groupId;
    private final OffsetStore store;
    private final CoalescingWriter<Queued> writer;
    private OffsetState durable = OffsetState.EMPTY;
    private String storedProtocolType;
    /** The file still holds what {@link #restore} dropped: the next write must happen even if nothing changes. */
    private boolean fileStale;
    /** What the write in flight makes durable. */
    private OffsetState writingState;
    private String writingProtocolType;

    GroupOffsetLog(String groupId, OffsetStore store, Executor io, Object lock) {
        this.groupId = groupId;
        this.store = store;
        this.writer = new CoalescingWriter<>(io, lock, this);
    }

    /**
     * Takes the offsets read from the store when the group was loaded, keeping those {@code live}
     * accepts; the others leave the file with the group's next write. Returns whether any were dropped.
     */
    boolean restore(OffsetStore.StoredGroup stored, BiPredicate<TopicPartition, CommittedOffset> live) {
        OffsetState state = new OffsetState(new LinkedHashMap<>(), new LinkedHashMap<>(), stored.membership());
        stored.offsets().forEach((tp, offset) -> {
            if (live.test(tp, offset)) {
                state.committed().put(tp, offset);
            }
        });
        stored.pendingTransactional().forEach((pid, offsets) -> offsets.forEach((tp, offset) -> {
            if (live.test(tp, offset)) {
                state.pending().computeIfAbsent(pid, id -> new LinkedHashMap<>()).put(tp, offset);
            }
        }));
        durable = state.frozen();
        storedProtocolType = stored.protocolType();
        fileStale = !state.committed().equals(stored.offsets()) || !state.pending().equals(stored.pendingTransactional());
        return fileStale;
    }

    /** The durable committed offsets. */
    Map<TopicPartition, CommittedOffset> durable() {
        return durable.committed();
    }

    /** Whether the group has committed or staged offsets. */
    boolean hasOffsets() {
        return durable.hasOffsets();
    }

    /** The stable generation stored for a restarted coordinator to resume, null if none. */
    GroupSnapshot storedMembership() {
        return durable.membership();
    }

    /** The protocol type recorded in the group's file, null if none. */
    String storedProtocolType() {
        return storedProtocolType;
    }

    /**
     * Whether {@code partition} has an offset on its way: a commit queued or being written, or one
     * staged by a transaction that has not ended (OffsetFetch's require_stable waits for both).
     */
    boolean hasPendingCommit(TopicPartition partition) {
        return durable.hasPendingTransactional(partition) || writer.isPending(q -> q.mutation.commits(partition));
    }

    /**
     * Queues a change; the stage completes once it is durable (or fails with the write's error). A request being
     * traced gets an {@code fsync} child for the wait: its turn, the file's write and its fsync.
     *
     * @param protocolType the group's protocol type, recorded in the file (null keeps the recorded one)
     */
    CompletableFuture<Void> submit(OffsetMutation mutation, String protocolType) {
        return TraceSpan.current().child("fsync").attribute("kaas.group", groupId)
                .endWhenDone(writer.submit(new Queued(mutation, protocolType)));
    }

    /**
     * Queues a change no answer waits for (a new generation a SyncGroup brought): not a step of the request
     * being handled, so not traced as one; its span would end after the request's.
     */
    CompletableFuture<Void> submitUnawaited(OffsetMutation mutation, String protocolType) {
        return writer.submit(new Queued(mutation, protocolType));
    }

    @Override
    public Runnable prepare(List<Queued> changes) {
        OffsetState next = durable.copy();
        String protocolType = storedProtocolType;
        for (Queued q : changes) {
            q.mutation.applyTo(next);
            protocolType = q.protocolType != null ? q.protocolType : protocolType;
        }
        if (next.equals(durable) && Objects.equals(protocolType, storedProtocolType) && !fileStale) {
            return null; // e.g. purging a topic the group never committed
        }
        writingState = next.frozen();
        writingProtocolType = protocolType;
        String type = protocolType;
        return () -> {
            if (next.isEmpty()) {
                store.delete(groupId);
            } else {
                store.save(new OffsetStore.StoredGroup(groupId, type, next.committed(), next.pending(), next.membership()));
            }
        };
    }

    @Override
    public void written(List<Queued> changes, RuntimeException failure) {
        if (failure == null && writingState != null) {
            durable = writingState;
            storedProtocolType = writingProtocolType;
            fileStale = false;
        }
        writingState = null;
    }

    record Queued(OffsetMutation mutation, String protocolType) {
    }
}
