package io.kaas.application.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.fake.RecordingSpan;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryOffsetStore;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.GroupCoordinator.CommitRequest;
import io.kaas.application.port.in.GroupCoordinator.JoinRequest;
import io.kaas.application.port.in.GroupCoordinator.OffsetCommit;
import io.kaas.application.port.in.GroupCoordinator.OffsetFetchResult;
import io.kaas.application.port.in.GroupCoordinator.PartitionOffset;
import io.kaas.application.port.in.GroupCoordinator.SyncRequest;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.OffsetStore;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.group.GroupOverview;
import io.kaas.domain.group.GroupState;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.Protocol;
import io.kaas.domain.group.SyncResponse;
import io.kaas.domain.topic.TopicPartition;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The coordinator service on a manual clock, scheduler and I/O executor: parking, timers, lazy
 * loading, durable acknowledgement and purging — no threads.
 */
class GroupCoordinatorServiceTest {
    private static final GroupConfig CONFIG = new GroupConfig(1_000, 60_000, 3_000, 10, Integer.MAX_VALUE, GroupConfig.DEFAULTS.offsetsRetentionMs(),
            GroupConfig.DEFAULTS.offsetsRetentionCheckIntervalMs());
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);
    private static final TopicPartition U0 = new TopicPartition("u", 0);

    private final ManualScheduler scheduler = new ManualScheduler();
    private final QueuedExecutor io = new QueuedExecutor();
    private final CountingStore store = new CountingStore();
    private final TopicService topics = new TopicService(new InMemoryTopicStore(),
            new MemoryLogEngine(tp -> { }), new BrokerSettings(0, 1, false), BrokerConfigs.of(List.of()),
            UUID::randomUUID);
    private final ClusterUseCase cluster = new StandaloneCluster("cluster", 0, "localhost", () -> 9092, null);
    private GroupCoordinatorService service = newService(cluster);

    GroupCoordinatorServiceTest() {
        createTopic("t", 2);
        createTopic("u", 1);
    }

    private GroupCoordinatorService newService(ClusterUseCase routing) {
        GroupCoordinatorService created = new GroupCoordinatorService(CONFIG, store, topics, routing,
                scheduler.clock(), scheduler, io, UUID::randomUUID, NO_TRANSACTIONS);
        topics.addDeletionListener(created::onTopicDeleted);
        return created;
    }

    private void createTopic(String name, int partitions) {
        topics.create(new TopicAdminUseCase.CreateCommand(name, partitions, -1, Map.of(), Map.of(), false));
    }

    /** Lets the queued I/O (loads, writes) run, then returns the stage's value (null if still pending). */
    private <T> T settle(CompletionStage<T> stage) {
        io.runAll();
        return stage.toCompletableFuture().getNow(null);
    }

    private static JoinRequest join(String group, String memberId, String instanceId) {
        return new JoinRequest(group, memberId, instanceId, instanceId == null, true, "client", "/127.0.0.1",
                30_000, 10_000, "consumer", List.of(new Protocol("range", subscription("t"))), null);
    }

    /** A one-member stable group; returns the member id. */
    private String stableMember(String group) {
        JoinResponse required = settle(service.joinGroup(join(group, "", null)));
        assertThat(required.error()).isEqualTo(KafkaError.MEMBER_ID_REQUIRED);
        CompletionStage<JoinResponse> joining = service.joinGroup(join(group, required.memberId(), null));
        scheduler.advance(CONFIG.initialRebalanceDelayMs());
        JoinResponse joined = settle(joining);
        assertThat(joined.generationId()).isEqualTo(1);
        SyncResponse synced = settle(service.syncGroup(new SyncRequest(group, joined.memberId(), null, 1, "consumer",
                "range", Map.of(joined.memberId(), new byte[] {1}))));
        assertThat(synced.error()).isEqualTo(KafkaError.NONE);
        return joined.memberId();
    }

    private CompletableFuture<Map<TopicPartition, KafkaError>> commit(String group, String member, int generation,
                                                                      TopicPartition tp, long offset, String metadata) {
        return service.commitOffsets(new CommitRequest(group, member, null, generation, -1,
                List.of(new OffsetCommit(tp, offset, 7, metadata)))).toCompletableFuture();
    }

    /** Reads what is durable now, without letting queued writes run first (loading the group if needed). */
    private OffsetFetchResult fetch(String group, List<TopicPartition> partitions) {
        CompletableFuture<OffsetFetchResult> read = service.fetchOffsets(group, partitions, false).toCompletableFuture();
        while (!read.isDone() && io.pending() > 0) {
            io.runAll();
        }
        return read.join();
    }

    @Test
    void aTracedLeadersSyncGroupEndsAfterEveryChildOfIts() {
        JoinResponse required = settle(service.joinGroup(join("g", "", null)));
        CompletionStage<JoinResponse> joining = service.joinGroup(join("g", required.memberId(), null));
        scheduler.advance(CONFIG.initialRebalanceDelayMs());
        JoinResponse joined = settle(joining);

        RecordingSpan request = new RecordingSpan("SyncGroup");
        CompletableFuture<SyncResponse> synced;
        try (TraceSpan.Scope ignored = request.activate()) { // as the wire runs a traced request's handler
            synced = service.syncGroup(new SyncRequest("g", joined.memberId(), null, 1, "consumer", "range",
                    Map.of(joined.memberId(), new byte[] {1}))).toCompletableFuture();
        }
        synced.whenComplete((answer, failure) -> request.end());
        io.runAll(); // the new generation's write, which the answer did not wait for

        assertThat(synced.join().error()).isEqualTo(KafkaError.NONE);
        assertThat(store.saves).as("the generation was stored").hasPositiveValue();
        assertThat(request.children()).allMatch(RecordingSpan::ended);
        assertThat(request.endOrder()).last().isSameAs(request);
    }

    @Test
    void aJoinIsParkedUntilTheRebalanceCompletes() {
        CompletableFuture<JoinResponse> first = service.joinGroup(join("g", "", null)).toCompletableFuture();
        io.runAll();
        String id = first.join().memberId();

        CompletableFuture<JoinResponse> second = service.joinGroup(join("g", id, null)).toCompletableFuture();
        io.runAll();
        assertThat(second).isNotDone();

        scheduler.advance(CONFIG.initialRebalanceDelayMs());
        assertThat(second).isCompletedWithValueMatching(r -> r.generationId() == 1 && r.leaderId().equals(id));
    }

    @Test
    void sessionsExpireOnTheScheduler() {
        String member = stableMember("g");
        scheduler.advance(9_999);
        assertThat(settle(service.heartbeat("g", member, null, 1))).isEqualTo(KafkaError.NONE);
        scheduler.advance(10_000);
        assertThat(settle(service.heartbeat("g", member, null, 1))).isEqualTo(KafkaError.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aCommitIsAcknowledgedOnlyOnceDurable() {
        String member = stableMember("g");
        CompletableFuture<Map<TopicPartition, KafkaError>> committed = commit("g", member, 1, T0, 42, "meta");

        assertThat(committed).isNotDone();
        assertThat(store.load("g").orElseThrow().offsets()).as("the file holds the generation only").isEmpty();
        assertThat(fetch("g", List.of(T0)).partitions().get(0).offset()).as("not visible before").isEqualTo(-1);
        io.runAll();
        assertThat(fetch("g", List.of(T0)).partitions().get(0).offset()).as("visible once durable").isEqualTo(42);
        assertThat(committed).isCompletedWithValue(Map.of(T0, KafkaError.NONE));
        assertThat(store.load("g").orElseThrow().offsets().get(T0).offset()).isEqualTo(42);
        assertThat(store.load("g").orElseThrow().protocolType()).isEqualTo("consumer");
    }

    @Test
    void aFailedWriteIsAnErrorAndLeavesTheOffsetsAsTheyWere() {
        String member = stableMember("g");
        settle(commit("g", member, 1, T0, 1, null));
        store.failWrites = true;

        Map<TopicPartition, KafkaError> failed = settle(commit("g", member, 1, T0, 2, null));

        assertThat(failed).containsEntry(T0, KafkaError.NOT_COORDINATOR);
        assertThat(fetch("g", List.of(T0)).partitions().get(0).offset()).isEqualTo(1);
        store.failWrites = false;
        assertThat(settle(commit("g", member, 1, T0, 3, null))).containsEntry(T0, KafkaError.NONE);
        assertThat(fetch("g", List.of(T0)).partitions().get(0).offset()).isEqualTo(3);
    }

    @Test
    void commitsQueuedBehindAWriteShareTheNextOne() {
        String member = stableMember("g");
        CompletableFuture<?> first = commit("g", member, 1, T0, 1, null);
        CompletableFuture<?> second = commit("g", member, 1, T1, 2, null);
        CompletableFuture<?> third = commit("g", member, 1, U0, 3, null);
        int before = store.saves.get();

        io.runAll();

        assertThat(List.of(first, second, third)).allMatch(CompletableFuture::isDone);
        assertThat(store.saves.get() - before).as("one write for the first, one for the two queued behind it").isEqualTo(2);
        assertThat(store.load("g").orElseThrow().offsets()).containsOnlyKeys(T0, T1, U0);
    }

    @Test
    void requireStableWaitsOutCommitsInFlight() {
        String member = stableMember("g");
        commit("g", member, 1, T0, 5, null);

        OffsetFetchResult unstable = service.fetchOffsets("g", List.of(T0, T1), true).toCompletableFuture().join();
        OffsetFetchResult relaxed = service.fetchOffsets("g", List.of(T0), false).toCompletableFuture().join();

        assertThat(unstable.partitions()).extracting(PartitionOffset::error)
                .containsExactly(KafkaError.UNSTABLE_OFFSET_COMMIT, KafkaError.NONE);
        assertThat(relaxed.partitions().get(0).offset()).isEqualTo(-1);
    }

    @Test
    void commitsThatArriveWhileTheGroupLoadsTakeEffectInTheOrderTheyCame() {
        CompletableFuture<Map<TopicPartition, KafkaError>> first = commit("pipelined", "", -1, T0, 1, null);
        CompletableFuture<Map<TopicPartition, KafkaError>> second = commit("pipelined", "", -1, T0, 2, null);

        io.runAll(); // the load, then both writes

        assertThat(first.join()).containsEntry(T0, KafkaError.NONE);
        assertThat(second.join()).containsEntry(T0, KafkaError.NONE);
        assertThat(fetch("pipelined", List.of(T0)).partitions().get(0).offset()).as("the later commit wins").isEqualTo(2);
    }

    @Test
    void committersOutsideGroupManagementCreateAnEmptyGroup_zombiesDoNot() {
        assertThat(settle(commit("manual", "", -1, T0, 10, "m"))).containsEntry(T0, KafkaError.NONE);
        assertThat(settle(commit("nobody", "m-1", 3, T0, 10, null))).containsEntry(T0, KafkaError.ILLEGAL_GENERATION);

        PartitionOffset read = fetch("manual", List.of(T0)).partitions().get(0);
        assertThat(read).isEqualTo(new PartitionOffset(T0, 10, 7, "m", KafkaError.NONE));
        assertThat(settle(service.describeGroups(List.of("manual", "nobody"))))
                .extracting(GroupDescription::state).containsExactly(GroupState.EMPTY, GroupState.DEAD);
    }

    @Test
    void badCommitsGetApachesErrors() {
        Map<TopicPartition, KafkaError> result = settle(service.commitOffsets(new CommitRequest("g", "", null, -1, -1, List.of(
                new OffsetCommit(new TopicPartition("missing", 0), 1, -1, null),
                new OffsetCommit(new TopicPartition("t", 9), 1, -1, null),
                new OffsetCommit(T0, 1, -1, "x".repeat(11)),
                new OffsetCommit(T1, -5, -1, "ok")))));

        assertThat(result).containsExactly(
                Map.entry(new TopicPartition("missing", 0), KafkaError.UNKNOWN_TOPIC_OR_PARTITION),
                Map.entry(new TopicPartition("t", 9), KafkaError.UNKNOWN_TOPIC_OR_PARTITION),
                Map.entry(T0, KafkaError.OFFSET_METADATA_TOO_LARGE),
                Map.entry(T1, KafkaError.NONE));
    }

    @Test
    void oldCommitsCarryTheirOwnTimeAndRetentionAsApacheKeepsThem() {
        long now = scheduler.clock().nowMs();
        settle(service.commitOffsets(new CommitRequest("old-client", "", null, -1, 60_000, List.of(
                new OffsetCommit(T0, 5, -1, null, 1_234L), new OffsetCommit(T1, 6, -1, null)))));

        Map<TopicPartition, CommittedOffset> stored = store.load("old-client").orElseThrow().offsets();
        assertThat(stored.get(T0).commitTimestampMs()).as("v1's own commit time").isEqualTo(1_234L);
        assertThat(stored.get(T1).commitTimestampMs()).isEqualTo(now);
        assertThat(stored.values()).extracting(CommittedOffset::expireTimestampMs).as("v2-4's retention from now")
                .containsOnly(now + 60_000);
    }

    @Test
    void groupsKnownOnlyFromTheirFilesAreLoadedLazilyAndListed() {
        UUID t = topics.byName("t").orElseThrow().id();
        store.save(new OffsetStore.StoredGroup("old", "consumer", Map.of(T0, new CommittedOffset(99, 3, "x", 1L, t))));
        service = newService(cluster);

        assertThat(fetch("old", null).partitions()).containsExactly(new PartitionOffset(T0, 99, 3, "x", KafkaError.NONE));
        store.save(new OffsetStore.StoredGroup("other", null, Map.of(T1, new CommittedOffset(1, -1, "", 1L, t))));
        assertThat(settle(service.listGroups(Set.of())).groups()).containsExactlyInAnyOrder(
                new GroupOverview("old", "consumer", GroupState.EMPTY), new GroupOverview("other", "", GroupState.EMPTY));
        assertThat(settle(service.listGroups(Set.of("Stable"))).groups()).isEmpty();
    }

    @Test
    void deletingATopicPurgesItsOffsetsFromLoadedAndStoredGroups() {
        String member = stableMember("g");
        settle(commit("g", member, 1, T0, 1, null));
        settle(commit("g", member, 1, U0, 2, null));
        UUID t = topics.byName("t").orElseThrow().id();
        store.save(new OffsetStore.StoredGroup("cold", "consumer", Map.of(T0, new CommittedOffset(5, -1, "", 1L, t))));

        topics.deleteByName("t");
        io.runAll();

        assertThat(store.load("g").orElseThrow().offsets()).containsOnlyKeys(U0);
        assertThat(fetch("g", null).partitions()).extracting(PartitionOffset::partition).containsExactly(U0);
        createTopic("t", 2); // a new incarnation under the old name starts with no offsets
        assertThat(fetch("cold", null).partitions()).isEmpty();
        assertThat(settle(service.describeGroups(List.of("cold"))).get(0).state()).isEqualTo(GroupState.DEAD);
        io.runAll();
        assertThat(store.load("cold")).as("loading it removed the dead offsets from the file too").isEmpty();
    }

    @Test
    void onlyEmptyGroupsAreDeletedWithTheirOffsets() {
        String member = stableMember("g");
        settle(commit("g", member, 1, T0, 1, null));

        assertThat(settle(service.deleteGroups(List.of("g", "unknown"))))
                .containsExactly(Map.entry("g", KafkaError.NON_EMPTY_GROUP), Map.entry("unknown", KafkaError.GROUP_ID_NOT_FOUND));

        settle(service.leaveGroup("g", List.of(new GroupCommand.LeavingMember(member, null, null))));
        assertThat(settle(service.deleteGroups(List.of("g")))).containsExactly(Map.entry("g", KafkaError.NONE));
        assertThat(store.load("g")).isEmpty();
        assertThat(settle(service.describeGroups(List.of("g"))).get(0).state()).isEqualTo(GroupState.DEAD);
        assertThat(settle(service.listGroups(Set.of())).groups()).isEmpty();
    }

    @Test
    void anActiveConsumerGroupKeepsTheOffsetsOfTopicsItConsumes() {
        String member = stableMember("g");
        settle(commit("g", member, 1, T0, 1, null));
        settle(commit("g", member, 1, U0, 1, null));

        var result = settle(service.deleteOffsets("g", List.of(T0, U0, new TopicPartition("missing", 0))));

        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(result.partitions()).containsOnly(Map.entry(T0, KafkaError.GROUP_SUBSCRIBED_TO_TOPIC),
                Map.entry(U0, KafkaError.NONE), Map.entry(new TopicPartition("missing", 0), KafkaError.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(store.load("g").orElseThrow().offsets()).containsOnlyKeys(T0);
        assertThat(settle(service.deleteOffsets("nope", List.of(T0))).error()).isEqualTo(KafkaError.GROUP_ID_NOT_FOUND);
    }

    @Test
    void groupIdsAndOwnershipAreCheckedFirst() {
        assertThat(settle(service.heartbeat("", "m", null, 1))).isEqualTo(KafkaError.INVALID_GROUP_ID);
        assertThat(settle(service.fetchOffsets("", List.of(T0), false)).error()).isEqualTo(KafkaError.NONE);

        GroupCoordinatorService notMine = newService(new CoordinatedElsewhere());
        assertThat(settle(notMine.joinGroup(join("g", "", null))).error()).isEqualTo(KafkaError.NOT_COORDINATOR);
        assertThat(settle(notMine.describeGroups(List.of("g"))).get(0).error()).isEqualTo(KafkaError.NOT_COORDINATOR);
        assertThat(settle(service.joinGroup(new JoinRequest("g", "", null, true, true, "c", "h", 1, 999, "consumer",
                List.of(new Protocol("range", new byte[0])), null))).error()).isEqualTo(KafkaError.INVALID_SESSION_TIMEOUT);
        assertThat(settle(service.listGroups(Set.of())).groups()).as("a refused join creates no group").isEmpty();
    }

    @Test
    void closingAnswersParkedJoinsNotCoordinator() {
        String member = stableMember("g");
        JoinResponse second = settle(service.joinGroup(join("g", "", null)));
        CompletableFuture<JoinResponse> parked = service.joinGroup(join("g", second.memberId(), null)).toCompletableFuture();
        io.runAll();
        assertThat(parked).isNotDone();

        service.close();

        assertThat(parked).isCompletedWithValueMatching(r -> r.error() == KafkaError.NOT_COORDINATOR);
        assertThat(member).isNotEmpty();
    }

    @Test
    void theOrphanSweepUnloadsGroupsTheClusterRoutesElsewhereAndTheirFilesAreLeftAlone() {
        Movable routing = new Movable(cluster);
        service = newService(routing);
        stableMember("g");
        JoinResponse second = settle(service.joinGroup(join("g", "", null)));
        CompletableFuture<JoinResponse> parked = service.joinGroup(join("g", second.memberId(), null)).toCompletableFuture();
        io.runAll();
        service.evictDisowned();
        assertThat(parked).as("still coordinated here: nothing happens").isNotDone();

        routing.moved = true;
        service.evictDisowned();

        assertThat(parked).isCompletedWithValueMatching(r -> r.error() == KafkaError.NOT_COORDINATOR);
        int saves = store.saves.get();
        service.expireOffsets();
        io.runAll();
        assertThat(store.saves.get()).isEqualTo(saves);
    }

    /** A standalone cluster whose groups can be moved to broker 1. */
    private static final class Movable implements ClusterUseCase {
        private final ClusterUseCase here;
        volatile boolean moved;

        Movable(ClusterUseCase here) {
            this.here = here;
        }

        @Override
        public String clusterId() {
            return here.clusterId();
        }

        @Override
        public Broker self() {
            return here.self();
        }

        @Override
        public List<Broker> brokers() {
            return here.brokers();
        }

        @Override
        public int controllerId() {
            return here.controllerId();
        }

        @Override
        public int leaderOf(String topic, int partition) {
            return here.leaderOf(topic, partition);
        }

        @Override
        public Optional<Broker> groupCoordinator(String groupId) {
            return moved ? Optional.of(new Broker(1, "other", 9093)) : here.groupCoordinator(groupId);
        }

        @Override
        public Optional<Broker> transactionCoordinator(String transactionalId) {
            return here.transactionCoordinator(transactionalId);
        }

        @Override
        public Optional<Broker> transactionSlotCoordinator(int slot) {
            return here.transactionSlotCoordinator(slot);
        }
    }

    private static byte[] subscription(String topic) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + 4 + 2 + name.length + 4).putShort((short) 0).putInt(1)
                .putShort((short) name.length).put(name).putInt(-1).array();
    }

    /** Groups tested here see no transactional producer: the coordinator knows none. */
    private static final TransactionVerifier NO_TRANSACTIONS = new TransactionVerifier() {
        @Override
        public CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                                 short producerEpoch,
                                                                                 Set<TopicPartition> partitions) {
            return CompletableFuture.completedFuture(Map.of());
        }

        @Override
        public CompletionStage<KafkaError> verifyGroup(String transactionalId, long producerId, short producerEpoch,
                                                       String groupId) {
            return CompletableFuture.completedFuture(KafkaError.INVALID_PRODUCER_ID_MAPPING);
        }
    };

    /** A cluster where broker 1 coordinates every group and this broker is 0. */
    private static final class CoordinatedElsewhere implements ClusterUseCase {
        @Override
        public String clusterId() {
            return "c";
        }

        @Override
        public Broker self() {
            return new Broker(0, "self", 9092);
        }

        @Override
        public List<Broker> brokers() {
            return List.of(self(), new Broker(1, "other", 9093));
        }

        @Override
        public int controllerId() {
            return 1;
        }

        @Override
        public int leaderOf(String topic, int partition) {
            return 1;
        }

        @Override
        public Optional<Broker> groupCoordinator(String groupId) {
            return Optional.of(new Broker(1, "other", 9093));
        }

        @Override
        public Optional<Broker> transactionCoordinator(String transactionalId) {
            return groupCoordinator(transactionalId);
        }

        @Override
        public Optional<Broker> transactionSlotCoordinator(int slot) {
            return groupCoordinator("slot");
        }
    }

    /** The in-memory store, counting writes and failing them on demand. */
    private static final class CountingStore implements OffsetStore {
        private final OffsetStore delegate = new InMemoryOffsetStore();
        final AtomicInteger saves = new AtomicInteger();
        volatile boolean failWrites;

        @Override
        public Optional<StoredGroup> load(String groupId) {
            return delegate.load(groupId);
        }

        @Override
        public void save(StoredGroup group) {
            if (failWrites) {
                throw new UncheckedIOException(new java.io.IOException("disk full"));
            }
            saves.incrementAndGet();
            delegate.save(group);
        }

        @Override
        public void delete(String groupId) {
            delegate.delete(groupId);
        }

        @Override
        public List<String> groupIds() {
            return delegate.groupIds();
        }
    }
}
