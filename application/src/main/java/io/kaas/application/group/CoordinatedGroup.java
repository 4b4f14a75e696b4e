package io.kaas.application.group;

import io.kaas.application.port.in.GroupCoordinator.OffsetDeleteResult;
import io.kaas.application.port.in.GroupCoordinator.OffsetFetchResult;
import io.kaas.application.port.in.GroupCoordinator.PartitionOffset;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.OffsetStore;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.ClassicGroup;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.ConsumerSubscription;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.group.GroupEvent;
import io.kaas.domain.group.GroupOverview;
import io.kaas.domain.group.GroupReply;
import io.kaas.domain.group.GroupResult;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.group.GroupState;
import io.kaas.domain.group.GroupTimer;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.OffsetRetention;
import io.kaas.domain.group.SyncResponse;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything this broker holds for one group id: the group's state machine (null while the group
 * does not exist), its committed offsets, the JoinGroup and SyncGroup requests parked on it and its
 * timers. Every access takes this object's lock; parked requests are completed after it is released.
 *
 * <p>A slot starts by loading the group's stored offsets on the I/O executor; {@link #loaded()}
 * completes when it may be used.
 */
final class CoordinatedGroup {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatedGroup.class);

    private final String groupId;
    private final GroupConfig config;
    private final Clock clock;
    private final GroupTimers timers;
    private final GroupOffsetLog offsets;
    private final CompletableFuture<CoordinatedGroup> loaded = new CompletableFuture<>();
    /** Requests that came while the group was loading, in the order they came; guarded by this. */
    private final List<CompletableFuture<CoordinatedGroup>> waitingForLoad = new ArrayList<>();
    /** Loaded, and every request that waited for it let through; guarded by this. */
    private boolean open;
    private final Map<Long, CompletableFuture<JoinResponse>> parkedJoins = new HashMap<>();
    private final Map<Long, CompletableFuture<SyncResponse>> parkedSyncs = new HashMap<>();
    /** Null while the group does not exist (as Apache's coordinator has no entry for it). */
    private ClassicGroup group;
    /** The stable generation last handed to the file (null: none), so only a new one is written. */
    private GroupSnapshot persisted;
    /** Rebalances begun since this broker loaded the group; read lock-free by the metrics. */
    private final LongAdder rebalances = new LongAdder();

    CoordinatedGroup(String groupId, GroupConfig config, OffsetStore store, Clock clock, Scheduler scheduler, Executor io) {
        this.groupId = groupId;
        this.config = config;
        this.clock = clock;
        this.timers = new GroupTimers(scheduler, clock, this::timerDue);
        this.offsets = new GroupOffsetLog(groupId, store, io, this);
    }

    /**
     * Reads the group's file; run on the I/O executor. Offsets {@code live} rejects (their topic was
     * deleted) are dropped; a stored stable generation is resumed, its members' sessions starting
     * now; a group left with neither does not exist.
     */
    void load(OffsetStore store, BiPredicate<TopicPartition, CommittedOffset> live) {
        try {
            store.load(groupId).ifPresent(stored -> {
                synchronized (this) {
                    if (offsets.restore(stored, live)) {
                        offsets.submit(new OffsetMutation.Rewrite(), null).exceptionally(failure -> {
                            LOG.warn("group {}: offsets of deleted topics stay in its file until its next write: {}",
                                    groupId, failure.toString());
                            return null;
                        });
                    }
                    persisted = offsets.storedMembership();
                    if (offsets.hasOffsets() || persisted != null) {
                        group = ClassicGroup.restored(groupId, stored.protocolType(), config, clock.nowMs());
                    }
                    if (persisted != null) {
                        run(new GroupCommand.Resume(persisted));
                        LOG.info("group {} resumed generation {} with {} member(s)", groupId,
                                persisted.generationId(), persisted.members().size());
                    }
                }
            });
            finishLoad(null);
        } catch (RuntimeException e) {
            LOG.error("cannot load the offsets of group {}", groupId, e);
            finishLoad(e);
        }
    }

    /** Completes {@link #loaded}, then lets the requests that waited for the load through, in the order they came. */
    void finishLoad(Throwable failure) {
        if (failure == null) {
            loaded.complete(this);
        } else {
            loaded.completeExceptionally(failure);
        }
        while (true) {
            List<CompletableFuture<CoordinatedGroup>> turn;
            synchronized (this) {
                if (waitingForLoad.isEmpty()) {
                    open = true;
                    return;
                }
                turn = new ArrayList<>(waitingForLoad);
                waitingForLoad.clear();
            }
            for (CompletableFuture<CoordinatedGroup> request : turn) {
                if (failure == null) {
                    request.complete(this);
                } else {
                    request.completeExceptionally(failure);
                }
            }
        }
    }

    CompletableFuture<CoordinatedGroup> loaded() {
        return loaded;
    }

    /**
     * The slot, once loaded, for a request: requests that come during the load go through in the
     * order they came. (The dependents of one CompletableFuture run last-registered first: two
     * commits a consumer pipelined while its group was loading would be applied in reverse, and
     * the older offset would win.)
     */
    CompletableFuture<CoordinatedGroup> whenLoaded() {
        synchronized (this) {
            if (!open) {
                CompletableFuture<CoordinatedGroup> turn = new CompletableFuture<>();
                waitingForLoad.add(turn);
                return turn;
            }
        }
        return loaded;
    }

    String groupId() {
        return groupId;
    }

    // Membership.

    /** A JoinGroup; a new member (no member id yet) creates the group if it does not exist. */
    CompletableFuture<JoinResponse> join(GroupCommand.Join join) {
        return park(parkedJoins, join.requestId(), join, join.memberId().isEmpty(),
                JoinResponse.failed(join.memberId(), KafkaError.UNKNOWN_MEMBER_ID));
    }

    CompletableFuture<SyncResponse> sync(GroupCommand.Sync sync) {
        return park(parkedSyncs, sync.requestId(), sync, false, SyncResponse.failed(KafkaError.UNKNOWN_MEMBER_ID));
    }

    /** Runs a command whose answer is a reply to {@code requestId}, now or once the rebalance gets there. */
    private <T> CompletableFuture<T> park(Map<Long, CompletableFuture<T>> parked, long requestId, GroupCommand<Void> command,
                                          boolean createsGroup, T ifNoGroup) {
        CompletableFuture<T> response = new CompletableFuture<>();
        Outcome<Void> outcome;
        synchronized (this) {
            if (group == null) {
                if (!createsGroup) {
                    return CompletableFuture.completedFuture(ifNoGroup);
                }
                group = newGroup();
            }
            parked.put(requestId, response);
            outcome = run(command);
        }
        outcome.deliver();
        if (!response.isDone()) {
            TraceSpan.current().child("parked").endWhenDone(response); // waiting for the rebalance to get there
        }
        return response;
    }

    /** Heartbeat, LeaveGroup: commands answered at once. */
    <R> R handle(GroupCommand<R> command, R ifNoGroup) {
        Outcome<R> outcome;
        synchronized (this) {
            if (group == null) {
                return ifNoGroup;
            }
            outcome = run(command);
        }
        outcome.deliver();
        return outcome.response;
    }

    /** This broker stops coordinating the group: parked requests learn NOT_COORDINATOR, timers stop. */
    void unload() {
        Outcome<Void> outcome = null;
        synchronized (this) {
            if (group != null) {
                outcome = run(new GroupCommand.Unload());
            }
            timers.cancelAll();
        }
        if (outcome != null) {
            outcome.deliver();
        }
    }

    // Offsets.

    /**
     * Validates the committer, then queues the offsets; the stage completes with NONE once they are
     * durable (at once when there are none to write), or with the validation error at once.
     */
    CompletableFuture<KafkaError> commit(GroupCommand.ValidateOffsetCommit committer,
                                         Map<TopicPartition, CommittedOffset> commits) {
        Outcome<KafkaError> outcome;
        CompletableFuture<Void> durable;
        synchronized (this) {
            if (group == null) {
                if (committer.generationId() >= 0) {
                    // A member of a generation this coordinator never had: a zombie of an older coordinator.
                    return CompletableFuture.completedFuture(KafkaError.ILLEGAL_GENERATION);
                }
                group = newGroup(); // a committer outside group management creates an empty group
            }
            outcome = run(committer);
            if (outcome.response != KafkaError.NONE || commits.isEmpty()) {
                return CompletableFuture.completedFuture(outcome.response);
            }
            durable = offsets.submit(new OffsetMutation.Commit(commits), group.protocolType());
        }
        outcome.deliver();
        return durable.handle((ok, failure) -> {
            if (failure != null) {
                LOG.warn("offset commit of group {} is not durable: {}", groupId, failure.toString());
                // Apache answers a failed append to __consumer_offsets (KAFKA_STORAGE_ERROR) with NOT_COORDINATOR.
                return KafkaError.NOT_COORDINATOR;
            }
            return KafkaError.NONE;
        });
    }

    /**
     * Validates a transactional committer, then stages its offsets under its producer id; the stage
     * completes with NONE once they are durable, or with the validation error at once. A group that
     * does not exist is created (empty), as Apache does for any transactional commit.
     */
    CompletableFuture<KafkaError> stageTransactional(GroupCommand.ValidateTxnOffsetCommit committer, long producerId,
                                                     Map<TopicPartition, CommittedOffset> commits) {
        Outcome<KafkaError> outcome;
        CompletableFuture<Void> durable;
        synchronized (this) {
            if (group == null) {
                group = newGroup();
            }
            outcome = run(committer);
            if (outcome.response != KafkaError.NONE || commits.isEmpty()) {
                return CompletableFuture.completedFuture(outcome.response);
            }
            durable = offsets.submit(new OffsetMutation.Stage(producerId, commits), null);
        }
        outcome.deliver();
        return durable.handle((ok, failure) -> {
            if (failure != null) {
                LOG.warn("transactional offsets of group {} (producer {}) are not durable: {}", groupId, producerId,
                        failure.toString());
                return KafkaError.NOT_COORDINATOR;
            }
            return KafkaError.NONE;
        });
    }

    /** The producer's transaction ended: its staged offsets become committed (or are dropped), durably. */
    synchronized CompletableFuture<Void> endTransaction(long producerId, boolean commit) {
        return offsets.submit(new OffsetMutation.EndTransaction(producerId, commit), null);
    }

    /** The durable committed offsets, for the consumer-lag gauge; none once the group is gone. */
    synchronized Map<TopicPartition, Long> committedOffsets() {
        if (group == null || group.state() == GroupState.DEAD) {
            return Map.of();
        }
        Map<TopicPartition, Long> committed = new HashMap<>();
        offsets.durable().forEach((tp, c) -> committed.put(tp, c.offset()));
        return committed;
    }

    synchronized OffsetFetchResult fetch(List<TopicPartition> partitions, boolean requireStable) {
        boolean known = group != null && group.state() != GroupState.DEAD;
        Map<TopicPartition, CommittedOffset> committed = known ? offsets.durable() : Map.of();
        List<TopicPartition> wanted = partitions != null ? partitions
                : committed.keySet().stream().sorted(Comparator.comparing(TopicPartition::topic)
                        .thenComparingInt(TopicPartition::partition)).toList();
        List<PartitionOffset> result = new ArrayList<>(wanted.size());
        for (TopicPartition tp : wanted) {
            CommittedOffset c = committed.get(tp);
            if (known && requireStable && offsets.hasPendingCommit(tp)) {
                result.add(new PartitionOffset(tp, -1L, CommittedOffset.NO_LEADER_EPOCH, "", KafkaError.UNSTABLE_OFFSET_COMMIT));
            } else if (c == null) {
                result.add(new PartitionOffset(tp, -1L, CommittedOffset.NO_LEADER_EPOCH, "", KafkaError.NONE));
            } else {
                result.add(new PartitionOffset(tp, c.offset(), c.leaderEpoch(), c.metadata(), KafkaError.NONE));
            }
        }
        return new OffsetFetchResult(KafkaError.NONE, result);
    }

    /**
     * OffsetDelete: an empty group loses the offsets; a consumer group still consuming a topic
     * keeps that topic's (GROUP_SUBSCRIBED_TO_TOPIC); any other active group refuses.
     */
    CompletableFuture<OffsetDeleteResult> deleteOffsets(List<TopicPartition> partitions) {
        Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
        CompletableFuture<Void> durable;
        synchronized (this) {
            if (group == null || group.state() == GroupState.DEAD) {
                return CompletableFuture.completedFuture(OffsetDeleteResult.failed(KafkaError.GROUP_ID_NOT_FOUND));
            }
            boolean empty = group.state() == GroupState.EMPTY;
            if (!empty && !ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType())) {
                return CompletableFuture.completedFuture(OffsetDeleteResult.failed(KafkaError.NON_EMPTY_GROUP));
            }
            Set<TopicPartition> eligible = new LinkedHashSet<>();
            for (TopicPartition tp : partitions) {
                if (!empty && group.isSubscribedTo(tp.topic())) {
                    results.put(tp, KafkaError.GROUP_SUBSCRIBED_TO_TOPIC);
                } else {
                    eligible.add(tp);
                    results.put(tp, KafkaError.NONE);
                }
            }
            if (eligible.isEmpty()) {
                return CompletableFuture.completedFuture(new OffsetDeleteResult(KafkaError.NONE, results));
            }
            durable = offsets.submit(new OffsetMutation.Remove(eligible), null);
        }
        return durable.handle((ok, failure) -> {
            if (failure != null) {
                LOG.warn("deleting offsets of group {} failed: {}", groupId, failure.toString());
                results.replaceAll((tp, e) -> e == KafkaError.NONE ? KafkaError.KAFKA_STORAGE_ERROR : e);
            }
            return new OffsetDeleteResult(KafkaError.NONE, results);
        });
    }

    /**
     * The offsets cleanup ({@code offsets.retention.minutes}): drops, durably, the offsets the group's
     * retention has expired, except those with a commit on its way. Completes true when the group is
     * then empty with no offsets left, and so Dead, as Apache's {@code cleanupGroupMetadata} leaves it.
     */
    CompletableFuture<Boolean> expireOffsets() {
        CompletableFuture<Void> durable;
        Set<TopicPartition> expired;
        synchronized (this) {
            if (group == null || group.state() == GroupState.DEAD) {
                return CompletableFuture.completedFuture(false);
            }
            expired = OffsetRetention.expired(group, offsets.durable(), clock.nowMs(), config.offsetsRetentionMs());
            expired.removeIf(offsets::hasPendingCommit);
            if (expired.isEmpty()) {
                return CompletableFuture.completedFuture(dropIfEmpty());
            }
            durable = offsets.submit(new OffsetMutation.Remove(expired), null);
        }
        return durable.thenApply(written -> {
            LOG.info("group {}: removed {} expired offsets", groupId, expired.size());
            synchronized (this) {
                return dropIfEmpty();
            }
        });
    }

    /** Lock held. */
    private boolean dropIfEmpty() {
        if (group == null || offsets.hasOffsets()) {
            return false;
        }
        boolean dead = run(new GroupCommand.DropIfEmpty()).response;
        if (dead) {
            timers.cancelAll();
        }
        return dead;
    }

    /** Drops a deleted topic's offsets. */
    synchronized CompletableFuture<Void> purgeTopic(String topic, UUID topicId) {
        return offsets.submit(new OffsetMutation.RemoveTopic(topic, topicId), null);
    }

    /**
     * DeleteGroups: an empty group becomes Dead and its offsets file is removed. Completes with the
     * error, NONE once the file is gone (or could not be removed, which is logged, as Apache only
     * logs a failed tombstone write).
     */
    CompletableFuture<KafkaError> delete() {
        CompletableFuture<Void> removed;
        synchronized (this) {
            if (group == null) {
                return CompletableFuture.completedFuture(KafkaError.GROUP_ID_NOT_FOUND);
            }
            KafkaError error = run(new GroupCommand.Delete()).response;
            if (error != KafkaError.NONE) {
                return CompletableFuture.completedFuture(error);
            }
            timers.cancelAll();
            removed = offsets.submit(new OffsetMutation.RemoveAll(), null);
        }
        return removed.handle((ok, failure) -> {
            if (failure != null) {
                LOG.warn("group {} deleted, but its offsets file could not be removed: {}", groupId, failure.toString());
            }
            return KafkaError.NONE;
        });
    }

    // Reads for the admin APIs.

    /** Whether the group exists here (it may be Dead, on its way out). */
    synchronized boolean exists() {
        return group != null;
    }

    synchronized GroupDescription describe() {
        return group == null ? GroupDescription.dead(groupId) : group.describe();
    }

    /** The group as ListGroups lists it, or null if it does not exist (or is Dead). */
    synchronized GroupOverview overview() {
        if (group == null || group.state() == GroupState.DEAD) {
            return null;
        }
        return group.overview();
    }

    // Internals.

    private ClassicGroup newGroup() {
        return ClassicGroup.restored(groupId, offsets.storedProtocolType(), config, clock.nowMs());
    }

    private void timerDue(GroupTimer timer, Object token) {
        Outcome<Void> outcome;
        synchronized (this) {
            if (!timers.claim(timer, token) || group == null) {
                return;
            }
            outcome = run(new GroupCommand.FireTimer(timer));
        }
        outcome.deliver();
    }

    /** Runs a command on the group (lock held); the replies it owes are completed by {@link Outcome#deliver}. */
    private <R> Outcome<R> run(GroupCommand<R> command) {
        GroupResult<R> result = group.handle(command, clock.nowMs());
        result.events().forEach(this::log);
        timers.apply(result.timers());
        if (!(command instanceof GroupCommand.Unload)) {
            storeGeneration();
        }
        List<Runnable> completions = new ArrayList<>();
        for (GroupReply reply : result.replies()) {
            if (reply instanceof GroupReply.ToJoin join) {
                CompletableFuture<JoinResponse> parked = parkedJoins.remove(join.requestId());
                if (parked != null) {
                    completions.add(() -> parked.complete(join.response()));
                }
            } else if (reply instanceof GroupReply.ToSync sync) {
                CompletableFuture<SyncResponse> parked = parkedSyncs.remove(sync.requestId());
                if (parked != null) {
                    completions.add(() -> parked.complete(sync.response()));
                }
            }
        }
        return new Outcome<>(result.response(), completions);
    }

    /**
     * Hands a new stable generation to the group's file (or clears it once the group is empty or
     * dead), as Apache writes its group metadata record; mid-rebalance the last stable one stands.
     * Not awaited: a generation lost to a crash only means the members rejoin. Lock held.
     */
    private void storeGeneration() {
        GroupSnapshot current = switch (group.state()) {
            case STABLE -> group.snapshot().orElseThrow();
            case EMPTY, DEAD -> null;
            default -> persisted;
        };
        if (current == null ? persisted == null : current.sameGenerationAs(persisted)) {
            return;
        }
        persisted = current;
        offsets.submitUnawaited(new OffsetMutation.Membership(current),
                        current == null ? null : current.protocolType())
                .whenComplete((written, failure) -> {
                    if (failure != null) {
                        LOG.warn("group {}: generation not stored, members will rejoin after a restart: {}",
                                groupId, failure.toString());
                    }
                });
    }

    /** Rebalances begun since this broker loaded the group. Lock-free. */
    long rebalances() {
        return rebalances.sum();
    }

    private void log(GroupEvent event) {
        if (event instanceof GroupEvent.RebalancePrepared prepared) {
            rebalances.increment();
            LOG.info("group {} rebalancing from generation {}: {}", groupId, prepared.fromGeneration(), prepared.reason());
        } else if (event instanceof GroupEvent.GenerationStarted started) {
            if (started.protocolName() == null) {
                LOG.info("group {} is empty at generation {}", groupId, started.generationId());
            } else {
                LOG.info("group {} generation {} starts with protocol {}", groupId, started.generationId(),
                        started.protocolName());
            }
        } else if (event instanceof GroupEvent.MemberRemoved removed) {
            LOG.info("group {} member {} removed: {}", groupId, removed.memberId(), removed.reason());
        } else if (event instanceof GroupEvent.StaticMemberReplaced replaced) {
            LOG.info("group {} static member {} rejoined as {}, fencing {}", groupId, replaced.groupInstanceId(),
                    replaced.newMemberId(), replaced.oldMemberId());
        } else if (event instanceof GroupEvent.GroupDied died) {
            LOG.info("group {} {}", groupId, died.reason());
        } else {
            LOG.debug("group {}: {}", groupId, event);
        }
    }

    /** A command's response and the parked requests to complete once the lock is released. */
    private record Outcome<R>(R response, List<Runnable> completions) {
        void deliver() {
            completions.forEach(Runnable::run);
        }
    }
}
