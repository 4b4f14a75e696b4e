package io.kaas.application.group;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.OffsetStore;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.application.task.PeriodicTask;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.group.GroupOverview;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.LeaveResult;
import io.kaas.domain.group.SyncResponse;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator: routes each request to its group's {@link CoordinatedGroup}, loading the group's
 * offsets from the {@link OffsetStore} the first time the group is touched (on the I/O executor,
 * never on the caller's thread). Groups other brokers coordinate are refused with NOT_COORDINATOR.
 *
 * <p>Checks that come before the group, as in Apache's broker: the group id (INVALID_GROUP_ID),
 * ownership (NOT_COORDINATOR), the session timeout of a join, and, for offset commits and deletes,
 * that each topic-partition exists (UNKNOWN_TOPIC_OR_PARTITION).
 */
public final class GroupCoordinatorService implements GroupCoordinator, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinatorService.class);

    private final GroupConfig config;
    private final OffsetStore store;
    private final TopicService topics;
    private final ClusterUseCase cluster;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private final Supplier<UUID> randomIds;
    private final TransactionVerifier transactions;
    private final Map<String, CoordinatedGroup> slots = new ConcurrentHashMap<>();
    private final AtomicLong requestIds = new AtomicLong();
    private volatile PeriodicTask offsetsCleanup;

    /**
     * @param io           runs the offset store's blocking reads and writes
     * @param randomIds    makes new member ids unique ({@code <client id>-<uuid>}, as Apache's)
     * @param transactions confirms TxnOffsetCommits with the producer's transaction coordinator
     */
    public GroupCoordinatorService(GroupConfig config, OffsetStore store, TopicService topics, ClusterUseCase cluster,
                                   Clock clock, Scheduler scheduler, Executor io, Supplier<UUID> randomIds,
                                   TransactionVerifier transactions) {
        this.config = config;
        this.store = store;
        this.topics = topics;
        this.cluster = cluster;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
        this.randomIds = randomIds;
        this.transactions = transactions;
    }

    @Override
    public CompletionStage<JoinResponse> joinGroup(JoinRequest r) {
        if (refusal(r.groupId(), false) == KafkaError.NONE && !config.acceptsSessionTimeout(r.sessionTimeoutMs())) {
            // Checked before the group is looked up (the state machine checks it too), so a refused
            // join never creates a group, as in Apache.
            return CompletableFuture.completedFuture(JoinResponse.failed(r.memberId(), KafkaError.INVALID_SESSION_TIMEOUT));
        }
        return onGroup(r.groupId(), false, e -> JoinResponse.failed(r.memberId(), e), slot -> slot.join(
                new GroupCommand.Join(requestIds.incrementAndGet(), r.memberId(), r.groupInstanceId(),
                        r.requireKnownMemberId(), r.supportSkipAssignment(), r.clientId(), r.clientHost(),
                        r.rebalanceTimeoutMs(), r.sessionTimeoutMs(), r.protocolType(), r.protocols(),
                        randomIds.get().toString(), r.reason())));
    }

    @Override
    public CompletionStage<SyncResponse> syncGroup(SyncRequest r) {
        return onGroup(r.groupId(), false, SyncResponse::failed, slot -> slot.sync(
                new GroupCommand.Sync(requestIds.incrementAndGet(), r.memberId(), r.groupInstanceId(), r.generationId(),
                        r.protocolType(), r.protocolName(), r.assignments())));
    }

    @Override
    public CompletionStage<KafkaError> heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        return onGroup(groupId, false, e -> e, slot -> CompletableFuture.completedFuture(slot.handle(
                new GroupCommand.Heartbeat(memberId, groupInstanceId, generationId), KafkaError.UNKNOWN_MEMBER_ID)));
    }

    @Override
    public CompletionStage<LeaveResult> leaveGroup(String groupId, List<GroupCommand.LeavingMember> members) {
        LeaveResult unknownGroup = new LeaveResult(KafkaError.NONE, members.stream()
                .map(m -> new LeaveResult.MemberResult(m.memberId(), m.groupInstanceId(), KafkaError.UNKNOWN_MEMBER_ID))
                .toList());
        return onGroup(groupId, false, e -> new LeaveResult(e, List.of()), slot -> CompletableFuture.completedFuture(
                slot.handle(new GroupCommand.Leave(members), unknownGroup)));
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> commitOffsets(CommitRequest r) {
        TraceSpan.current().attribute("kaas.partitions", r.offsets().size());
        OffsetBatch batch = offsetBatch(r.offsets(), r.retentionTimeMs());
        if (batch.noKnownPartition()) {
            return CompletableFuture.completedFuture(batch.results());
        }
        GroupCommand.ValidateOffsetCommit committer =
                new GroupCommand.ValidateOffsetCommit(r.memberId(), r.groupInstanceId(), r.generationId());
        return onGroup(r.groupId(), true, e -> e, slot -> slot.commit(committer, batch.valid())).thenApply(batch::outcome);
    }

    /**
     * An OffsetCommit's or TxnOffsetCommit's partitions in request order: those of unknown topics
     * fail alone; the rest share the group's outcome, except that metadata over the limit is
     * refused per partition (OFFSET_METADATA_TOO_LARGE) when the others commit.
     */
    private record OffsetBatch(Map<TopicPartition, KafkaError> results, Map<TopicPartition, CommittedOffset> valid) {
        boolean noKnownPartition() {
            return results.values().stream().allMatch(e -> e == KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        }

        Map<TopicPartition, KafkaError> outcome(KafkaError groupOutcome) {
            results.replaceAll((tp, e) -> e == KafkaError.UNKNOWN_TOPIC_OR_PARTITION ? e
                    : groupOutcome == KafkaError.NONE && !valid.containsKey(tp) ? KafkaError.OFFSET_METADATA_TOO_LARGE
                    : groupOutcome);
            return results;
        }
    }

    /**
     * @param retentionTimeMs OffsetCommit v2-4's retention time, -1 when the commit carries none: as
     *                        Apache, the offset then expires at the broker's time plus it
     */
    private OffsetBatch offsetBatch(List<OffsetCommit> offsets, long retentionTimeMs) {
        Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
        Map<TopicPartition, CommittedOffset> valid = new LinkedHashMap<>();
        long now = clock.nowMs();
        long expireTimestamp = retentionTimeMs == -1 ? CommittedOffset.NO_EXPIRE_TIMESTAMP : now + retentionTimeMs;
        for (OffsetCommit c : offsets) {
            if (!exists(c.partition())) {
                results.put(c.partition(), KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
            } else {
                results.put(c.partition(), KafkaError.NONE); // placeholder, keeps request order
                if (config.acceptsMetadata(c.metadata())) {
                    long committedAt = c.commitTimestampMs() == -1 ? now : c.commitTimestampMs();
                    valid.put(c.partition(), new CommittedOffset(c.offset(), c.leaderEpoch(), c.metadata(), committedAt,
                            expireTimestamp, topicId(c.partition().topic())));
                }
            }
        }
        return new OffsetBatch(results, valid);
    }

    /**
     * As Apache 3.7: partitions of unknown topics fail alone; the producer's coordinator must confirm
     * the group is in its transaction (its refusals returned as Apache maps them for offset commits);
     * then the group checks the committer, and the offsets are staged durably.
     */
    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> commitTransactionalOffsets(TxnCommitRequest r) {
        OffsetBatch batch = offsetBatch(r.offsets(), -1);
        if (batch.noKnownPartition()) {
            return CompletableFuture.completedFuture(batch.results());
        }
        KafkaError refused = refusal(r.groupId(), false);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(fill(batch.results(), refused));
        }
        GroupCommand.ValidateTxnOffsetCommit committer =
                new GroupCommand.ValidateTxnOffsetCommit(r.memberId(), r.groupInstanceId(), r.generationId());
        return transactions.verifyGroup(r.transactionalId(), r.producerId(), r.producerEpoch(), r.groupId())
                .toCompletableFuture()
                .thenCompose(verified -> verified != KafkaError.NONE
                        ? CompletableFuture.completedFuture(offsetCommitError(verified))
                        : onGroup(r.groupId(), false, e -> e,
                                slot -> slot.stageTransactional(committer, r.producerId(), batch.valid())))
                .thenApply(batch::outcome);
    }

    /**
     * A producer's transaction ended: the offsets it staged in the group are committed or dropped,
     * durably, when the stage completes (the transaction coordinator's offset hook).
     */
    public CompletableFuture<Void> completeTransaction(String groupId, long producerId, boolean commit) {
        KafkaError refused = refusal(groupId, true);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.failedFuture(new IllegalStateException("group " + groupId + ": " + refused));
        }
        return slot(groupId).thenCompose(slot -> slot.endTransaction(producerId, commit));
    }

    /**
     * The error a TxnOffsetCommit answers for a failed verification, as Apache 3.7 maps it: retriable
     * coordinator trouble becomes COORDINATOR_NOT_AVAILABLE; a fenced producer is INVALID_PRODUCER_EPOCH
     * at every version (Apache's verification turns PRODUCER_FENCED into it, as for Produce); the
     * producer's other errors pass through.
     */
    private static KafkaError offsetCommitError(KafkaError verification) {
        return switch (verification) {
            case CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR ->
                    KafkaError.COORDINATOR_NOT_AVAILABLE;
            case PRODUCER_FENCED -> KafkaError.INVALID_PRODUCER_EPOCH;
            default -> verification;
        };
    }

    private static Map<TopicPartition, KafkaError> fill(Map<TopicPartition, KafkaError> results, KafkaError error) {
        results.replaceAll((tp, e) -> e == KafkaError.UNKNOWN_TOPIC_OR_PARTITION ? e : error);
        return results;
    }

    @Override
    public CompletionStage<OffsetFetchResult> fetchOffsets(String groupId, List<TopicPartition> partitions,
                                                           boolean requireStable) {
        return onGroup(groupId, true, OffsetFetchResult::failed,
                slot -> CompletableFuture.completedFuture(slot.fetch(partitions, requireStable)));
    }

    /**
     * The committed offsets of every group loaded here that this broker coordinates, by group: what
     * consumer lag is computed from. Takes each group's lock briefly; never touches a partition log.
     */
    public Map<String, Map<TopicPartition, Long>> committedOffsets() {
        Map<String, Map<TopicPartition, Long>> byGroup = new LinkedHashMap<>();
        for (CoordinatedGroup slot : slots.values()) {
            if (slot.loaded().isDone() && !slot.loaded().isCompletedExceptionally() && owns(slot.groupId())) {
                Map<TopicPartition, Long> committed = slot.committedOffsets();
                if (!committed.isEmpty()) {
                    byGroup.put(slot.groupId(), committed);
                }
            }
        }
        return byGroup;
    }

    @Override
    public CompletionStage<ListGroupsResult> listGroups(Set<String> statesFilter) {
        // Groups known only from their files are listed too (Empty), as Apache lists groups it
        // loaded from __consumer_offsets: load every owned group that has a file.
        return CompletableFuture.supplyAsync(store::groupIds, io)
                .thenCompose(stored -> CompletableFuture.allOf(stored.stream().filter(this::owns)
                        .map(id -> slot(id).handle((slot, failure) -> slot)).toArray(CompletableFuture[]::new)))
                .handle((ignored, failure) -> {
                    if (failure != null) {
                        LOG.warn("cannot list stored groups: {}", failure.toString());
                        return new ListGroupsResult(KafkaError.COORDINATOR_NOT_AVAILABLE, List.of());
                    }
                    List<GroupOverview> groups = new ArrayList<>();
                    for (CoordinatedGroup slot : slots.values()) {
                        if (!slot.loaded().isDone() || slot.loaded().isCompletedExceptionally() || !owns(slot.groupId())) {
                            continue;
                        }
                        GroupOverview overview = slot.overview();
                        if (overview != null && (statesFilter.isEmpty()
                                || statesFilter.contains(overview.state().displayName()))) {
                            groups.add(overview);
                        }
                    }
                    return new ListGroupsResult(KafkaError.NONE, groups);
                });
    }

    @Override
    public CompletionStage<List<GroupDescription>> describeGroups(List<String> groupIds) {
        List<CompletableFuture<GroupDescription>> described = new ArrayList<>();
        for (String groupId : groupIds) {
            described.add(onGroup(groupId, true, e -> GroupDescription.failed(groupId, e),
                    slot -> CompletableFuture.completedFuture(slot.describe())));
        }
        return allOf(described);
    }

    @Override
    public CompletionStage<Map<String, KafkaError>> deleteGroups(List<String> groupIds) {
        List<String> distinct = groupIds.stream().distinct().toList();
        List<CompletableFuture<KafkaError>> deleted = new ArrayList<>();
        for (String groupId : distinct) {
            deleted.add(onGroup(groupId, true, e -> e, slot -> slot.delete().thenApply(error -> {
                if (error == KafkaError.NONE) {
                    slots.remove(groupId, slot);
                }
                return error;
            })));
        }
        return allOf(deleted).thenApply(errors -> {
            Map<String, KafkaError> results = new LinkedHashMap<>();
            for (int i = 0; i < distinct.size(); i++) {
                results.put(distinct.get(i), errors.get(i));
            }
            return results;
        });
    }

    @Override
    public CompletionStage<OffsetDeleteResult> deleteOffsets(String groupId, List<TopicPartition> partitions) {
        KafkaError refused = refusal(groupId, true);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(OffsetDeleteResult.failed(refused));
        }
        Map<TopicPartition, KafkaError> unknown = new LinkedHashMap<>();
        List<TopicPartition> known = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            if (exists(tp)) {
                known.add(tp);
            } else {
                unknown.put(tp, KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
            }
        }
        return onGroup(groupId, true, OffsetDeleteResult::failed, slot -> slot.deleteOffsets(known)).thenApply(result -> {
            if (result.error() != KafkaError.NONE) {
                return result;
            }
            Map<TopicPartition, KafkaError> all = new LinkedHashMap<>(unknown);
            all.putAll(result.partitions());
            return new OffsetDeleteResult(KafkaError.NONE, all);
        });
    }

    /**
     * A topic was deleted: its committed offsets go with it. Loaded groups drop them now (and
     * rewrite their files); groups loaded later drop them as they load, since every offset records
     * the topic incarnation it was committed to. Must not block: called on the deleting thread.
     */
    public void onTopicDeleted(Topic topic) {
        for (CoordinatedGroup slot : slots.values()) {
            slot.loaded().thenAccept(s -> s.purgeTopic(topic.name(), topic.id()));
        }
        LOG.info("purging committed offsets of deleted topic {}", topic.name());
    }

    /** Starts the offsets cleanup: every {@code offsets.retention.check.interval.ms}, {@link #expireOffsets}. */
    public void start() {
        offsetsCleanup = PeriodicTask.start("the offsets cleanup", scheduler, io,
                config.offsetsRetentionCheckIntervalMs(), this::expireOffsets);
    }

    /**
     * One pass of the offsets cleanup over every group this broker coordinates, those known only
     * from their files included (loaded first, as Apache holds every group it coordinates): expired
     * offsets go, and a group left empty with no offsets is forgotten.
     */
    public void expireOffsets() {
        store.groupIds().stream().filter(this::owns).forEach(this::slot);
        for (CoordinatedGroup slot : slots.values()) {
            if (!owns(slot.groupId())) {
                continue; // another broker coordinates it now: its file is that broker's to write
            }
            slot.loaded().thenCompose(CoordinatedGroup::expireOffsets).whenComplete((dead, failure) -> {
                if (failure != null) {
                    LOG.warn("offsets cleanup of group {} failed; the next pass retries: {}", slot.groupId(),
                            failure.toString());
                } else if (dead) {
                    slots.remove(slot.groupId(), slot);
                }
            });
        }
    }

    /**
     * The orphan sweep, after each assignment change in a cluster: every group resident here that the
     * cluster now routes to another broker is unloaded (its parked requests answered NOT_COORDINATOR,
     * its timers stopped); its members find the new coordinator, which loads the offsets from the
     * group's file. Walks every resident group, not only those this broker believed it coordinated.
     */
    public void evictDisowned() {
        for (CoordinatedGroup slot : slots.values()) {
            if (!owns(slot.groupId()) && slots.remove(slot.groupId(), slot)) {
                if (slot.loaded().isDone() && !slot.loaded().isCompletedExceptionally()) {
                    slot.unload();
                }
                LOG.info("group {} is coordinated by another broker now: unloaded here", slot.groupId());
            }
        }
    }

    /** Stops coordinating: parked requests are answered NOT_COORDINATOR and timers stop. */
    @Override
    public void close() {
        PeriodicTask cleanup = offsetsCleanup;
        if (cleanup != null) {
            cleanup.close();
        }
        slots.values().forEach(slot -> {
            if (slot.loaded().isDone() && !slot.loaded().isCompletedExceptionally()) {
                slot.unload();
            }
        });
    }

    // Internals.

    /**
     * Runs {@code action} on the group's slot once loaded, or answers {@code failed} with the
     * refusal: an invalid group id, a group owned elsewhere, or a group whose offsets cannot be read.
     */
    private <T> CompletableFuture<T> onGroup(String groupId, boolean emptyIdAllowed, Function<KafkaError, T> failed,
                                             Function<CoordinatedGroup, CompletableFuture<T>> action) {
        KafkaError refused = refusal(groupId, emptyIdAllowed);
        if (refused != KafkaError.NONE) {
            return CompletableFuture.completedFuture(failed.apply(refused));
        }
        return slot(groupId).thenCompose(traced(groupId, action)).exceptionally(failure -> {
            LOG.warn("request for group {} failed: {}", groupId, failure.toString());
            return failed.apply(KafkaError.COORDINATOR_NOT_AVAILABLE);
        });
    }

    /**
     * The action, run with the request's span current (a group loaded first runs it on the I/O thread that read
     * its file), so its steps (the offset file's write) become children of the request.
     */
    private static <T> Function<CoordinatedGroup, CompletableFuture<T>> traced(
            String groupId, Function<CoordinatedGroup, CompletableFuture<T>> action) {
        TraceSpan span = TraceSpan.current();
        if (span == TraceSpan.NONE) {
            return action;
        }
        span.attribute("kaas.group", groupId);
        return slot -> {
            try (TraceSpan.Scope ignored = span.activate()) {
                return action.apply(slot);
            }
        };
    }

    /**
     * Rebalances begun per group coordinated here, since this broker loaded it (a group moving to
     * another coordinator or deleted leaves the map). Lock-free: for the metrics.
     */
    public Map<String, Long> rebalanceCounts() {
        Map<String, Long> counts = new TreeMap<>();
        slots.forEach((groupId, group) -> counts.put(groupId, group.rebalances()));
        return counts;
    }

    /** The group's slot, created and loaded on first use; a failed load is forgotten so the next request retries. */
    private CompletableFuture<CoordinatedGroup> slot(String groupId) {
        CoordinatedGroup existing = slots.get(groupId);
        if (existing != null) {
            return existing.whenLoaded();
        }
        CoordinatedGroup created = new CoordinatedGroup(groupId, config, store, clock, scheduler, io);
        CoordinatedGroup raced = slots.putIfAbsent(groupId, created);
        if (raced != null) {
            return raced.whenLoaded();
        }
        created.loaded().whenComplete((loaded, failure) -> {
            if (failure != null) {
                slots.remove(groupId, created);
            }
        });
        CompletableFuture<CoordinatedGroup> turn = created.whenLoaded();
        try {
            io.execute(() -> created.load(store, this::live));
        } catch (RejectedExecutionException e) {
            created.finishLoad(e);
        }
        return turn;
    }

    /** Whether a stored offset's topic still exists in the incarnation it was committed to. */
    private boolean live(TopicPartition partition, CommittedOffset offset) {
        return topics.byName(partition.topic()).map(t -> offset.belongsTo(t.id())).orElse(false);
    }

    private UUID topicId(String topic) {
        return topics.byName(topic).map(Topic::id).orElse(null);
    }

    /**
     * Apache's checks before a group is looked up. The offset and admin APIs accept the empty group
     * id (for compatibility with old clients); the membership APIs do not.
     */
    private KafkaError refusal(String groupId, boolean emptyIdAllowed) {
        if (groupId == null || groupId.isEmpty() && !emptyIdAllowed) {
            return KafkaError.INVALID_GROUP_ID;
        }
        return owns(groupId) ? KafkaError.NONE : KafkaError.NOT_COORDINATOR;
    }

    private boolean owns(String groupId) {
        Optional<ClusterUseCase.Broker> coordinator = cluster.groupCoordinator(groupId);
        return coordinator.isPresent() && coordinator.get().id() == cluster.self().id();
    }

    private boolean exists(TopicPartition tp) {
        return topics.byName(tp.topic()).map(t -> t.hasPartition(tp.partition())).orElse(false);
    }

    private static <T> CompletableFuture<List<T>> allOf(List<CompletableFuture<T>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(v -> futures.stream().map(CompletableFuture::join).toList());
    }
}
