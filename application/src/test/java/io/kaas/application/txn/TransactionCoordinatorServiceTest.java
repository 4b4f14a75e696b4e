package io.kaas.application.txn;

import static io.kaas.application.txn.TxnFixture.IN0;
import static io.kaas.application.txn.TxnFixture.OUT0;
import static io.kaas.application.txn.TxnFixture.OUT1;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.LogRead;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.application.port.in.TransactionCoordinator.InitProducerIdResult;
import io.kaas.application.port.out.MarkerQueue;
import io.kaas.application.port.out.OffsetStore;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnSlots;
import io.kaas.domain.txn.TxnState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The transaction coordinator over its slot store and the logs: what is durable before it is
 * answered, markers and offsets at EndTxn, the reaper, the reconcile and fencing.
 */
class TransactionCoordinatorServiceTest {
    private final TxnFixture f = new TxnFixture();

    @Test
    void everyTransitionIsInTheSlotFileBeforeItIsAnswered() {
        CompletableFuture<InitProducerIdResult> init = f.coordinator().initProducerId("tx", 60_000, null).toCompletableFuture();
        assertThat(init).as("waiting for the slot write").isNotDone();
        assertThat(f.slots.load(TxnSlots.slotFor("tx"))).isEmpty();

        f.io.runAll();

        InitProducerIdResult p = init.join();
        assertThat(p.error()).isEqualTo(KafkaError.NONE);
        assertThat(f.slots.load(TxnSlots.slotFor("tx"))).singleElement()
                .satisfies(t -> assertThat(t.producerId()).isEqualTo(p.producerId()));
    }

    @Test
    void aCommandForAnIdWhoseTransitionIsBeingWrittenWaitsForIt() {
        InitProducerIdResult p = f.init("tx");
        CompletableFuture<Map<TopicPartition, KafkaError>> adding = f.coordinator()
                .addPartitions("tx", p.producerId(), p.producerEpoch(), Set.of(OUT0)).toCompletableFuture();

        CompletableFuture<KafkaError> ending = f.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), true)
                .toCompletableFuture();

        assertThat(ending).as("runs once the add is durable").isNotDone();
        f.io.runAll();
        assertThat(adding.join()).containsEntry(OUT0, KafkaError.NONE);
        assertThat(ending.join()).as("it ran on the added partition").isEqualTo(KafkaError.NONE);
        assertThat(f.offsets(OUT0).highWatermark()).isEqualTo(1L);
    }

    @Test
    void aSlotFileThatCannotBeWrittenIsNotCoordinatorAndChangesNothing() {
        InitProducerIdResult p = f.init("tx");
        f.slots.failing.set(true);

        assertThat(f.add("tx", p, OUT0)).isEqualTo(KafkaError.NOT_COORDINATOR);

        f.slots.failing.set(false);
        assertThat(f.state("tx")).isEqualTo("Empty");
        assertThat(f.add("tx", p, OUT0)).as("the client's retry").isEqualTo(KafkaError.NONE);
    }

    @Test
    void transitionsOfDifferentIdsShareSlotWrites() {
        String a = "same-slot-a";
        String b = sameSlotAs(a, a);
        String c = sameSlotAs(a, b);
        f.coordinator().initProducerId(a, 60_000, null);
        f.coordinator().initProducerId(b, 60_000, null);
        f.coordinator().initProducerId(c, 60_000, null);
        int before = f.slots.saves;

        f.io.runAll();

        assertThat(f.slots.saves - before).as("one write for the first, one for both queued behind it").isEqualTo(2);
        assertThat(f.slots.load(TxnSlots.slotFor(a))).extracting(Transaction::transactionalId)
                .containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    void aCommitWritesTheMarkersAndCommitsTheStagedOffsetsBeforeItIsAnswered() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0, OUT1);
        assertThat(f.produce("tx", p, OUT0, 0, 2)).isEqualTo(KafkaError.NONE);
        assertThat(f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"))).isEqualTo(KafkaError.NONE);
        assertThat(f.settle(f.groups.commitTransactionalOffsets(txnCommit(p, "g", 5L)))).containsEntry(IN0, KafkaError.NONE);
        assertThat(f.offsets(OUT0).lastStableOffset()).isZero();

        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.NONE);

        assertThat(f.state("tx")).isEqualTo("CompleteCommit");
        assertThat(f.offsets(OUT0).highWatermark()).as("two records and the marker").isEqualTo(3L);
        f.assertStable(OUT0);
        assertThat(f.offsets(OUT1).highWatermark()).as("a marker for a partition that got no data").isEqualTo(1L);
        assertThat(f.offsets.load("g").orElseThrow().offsets()).containsKey(IN0);
        assertThat(f.offsets.load("g").orElseThrow().pendingTransactional()).isEmpty();
        Transaction stored = f.slots.load(TxnSlots.slotFor("tx")).get(0);
        assertThat(stored.state()).isEqualTo(TxnState.COMPLETE_COMMIT);
        assertThat(stored.partitions()).isEmpty();
    }

    @Test
    void anAbortIndexesTheTransactionAndDropsTheStagedOffsets() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);
        f.produce("tx", p, OUT0, 0, 3);
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.settle(f.groups.commitTransactionalOffsets(txnCommit(p, "g", 5L)));

        assertThat(f.end("tx", p, false)).isEqualTo(KafkaError.NONE);

        LogRead read = f.log(OUT0).read(0, 1 << 20, true, true);
        assertThat(read.abortedTransactions()).singleElement().satisfies(a -> {
            assertThat(a.producerId()).isEqualTo(p.producerId());
            assertThat(a.firstOffset()).isZero();
            assertThat(a.lastOffset()).isEqualTo(3L);
        });
        assertThat(f.offsets.load("g")).as("nothing was ever committed: no file is left").isEmpty();
    }

    @Test
    void aFailedDispatchLeavesTheTransactionPreparedForTheReconcile() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);
        f.produce("tx", p, OUT0, 0, 1);
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.txn.coordinator().bindOffsetHook((group, pid, commit) -> CompletableFuture.failedFuture(new IllegalStateException("down")));

        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(f.state("tx")).isEqualTo("PrepareCommit");
        assertThat(f.add("tx", p, OUT1)).as("no new transaction until this one completes")
                .isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);

        f.txn.bindGroups(f.groups);
        f.txn.sweeper().sweep();
        f.io.runAll();

        assertThat(f.state("tx")).isEqualTo("CompleteCommit");
        assertThat(f.end("tx", p, true)).as("the client's retry").isEqualTo(KafkaError.NONE);
        f.assertStable(OUT0);
    }

    @Test
    void theReaperAbortsAnOverdueTransactionAndFencesItsProducer() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);
        f.produce("tx", p, OUT0, 0, 2);
        f.txn.sweeper().start();
        f.io.runAll();

        f.scheduler.advance(60_000); // the timeout, not yet past it
        f.io.runAll();
        assertThat(f.state("tx")).isEqualTo("Ongoing");
        f.scheduler.advance(TxnFixture.SETTINGS.abortTimedOutIntervalMs());
        f.io.runAll();

        assertThat(f.state("tx")).isEqualTo("CompleteAbort");
        f.assertStable(OUT0);
        assertThat(f.offsets(OUT0).highWatermark()).isEqualTo(3L);
        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.PRODUCER_FENCED);
        assertThat(f.produce("tx", p, OUT0, 2, 1)).as("verification fails first, with Produce's fencing code")
                .isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
        f.txn.sweeper().close();
    }

    @Test
    void anIdleIdExpires() {
        f.init("tx");
        f.txn.sweeper().start();
        f.io.runAll();

        f.scheduler.advance(TxnFixture.SETTINGS.idExpirationMs() + TxnFixture.SETTINGS.removeExpiredIntervalMs());
        f.io.runAll();

        assertThat(f.settle(f.coordinator().describe(List.of("tx"))).get(0).error())
                .isEqualTo(KafkaError.TRANSACTIONAL_ID_NOT_FOUND);
        assertThat(f.slots.load(TxnSlots.slotFor("tx"))).isEmpty();
        f.txn.sweeper().close();
    }

    @Test
    void aRejoinFencesTheOldEpochOnEveryLocalPartitionAndLogsTheFence() {
        InitProducerIdResult p = f.init("tx");
        // An idempotent write of this producer id on a partition outside any transaction.
        f.log(IN0).append(TestBatches.idempotent(p.producerId(), p.producerEpoch(), 0, 1), 0L);

        InitProducerIdResult next = f.init("tx");

        assertThat(next.producerEpoch()).isEqualTo((short) (p.producerEpoch() + 1));
        assertThat(f.log(IN0).producers()).singleElement()
                .satisfies(s -> assertThat(s.producerEpoch()).isEqualTo(next.producerEpoch()));
        assertThat(f.fenceLog.read(TxnFixture.BROKER_ID)).singleElement()
                .satisfies(fence -> assertThat(fence.producerEpoch()).isEqualTo(next.producerEpoch()));
    }

    @Test
    void producersAreVerifiedBeforeTheyStartATransactionOnAPartition() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);

        assertThat(f.produce("tx", p, OUT1, 0, 1)).as("not added").isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(f.produce("other", p, OUT0, 0, 1)).as("another id").isEqualTo(KafkaError.INVALID_PRODUCER_ID_MAPPING);
        assertThat(f.produce("tx", p, OUT0, 0, 1)).isEqualTo(KafkaError.NONE);
        assertThat(f.produce("tx", p, OUT0, 1, 1)).as("a transaction in progress here needs no verification")
                .isEqualTo(KafkaError.NONE);
    }

    @Test
    void aPreparedTransactionRetriesWithCoordinatorTroubleAsRetriableProduceErrors() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);
        f.txn.coordinator().bindOffsetHook((group, pid, commit) -> new CompletableFuture<>()); // never completes
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), true);
        f.io.runAll();
        assertThat(f.state("tx")).isEqualTo("PrepareCommit");

        assertThat(f.produce("tx", p, OUT1, 0, 1)).isEqualTo(KafkaError.NOT_ENOUGH_REPLICAS);
    }

    @Test
    void aTransactionOnPartitionsOtherBrokersLeadCompletesOnceTheyAppliedTheirMarkers() {
        TxnFixture remote = new TxnFixture(cluster -> new Routing(cluster, new AtomicInteger(7)));
        InitProducerIdResult p = remote.init("tx");
        remote.add("tx", p, OUT0, OUT1);

        CompletableFuture<KafkaError> ended = remote.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), false)
                .toCompletableFuture();
        remote.io.runAll();

        MarkerQueue.QueuedMarkers entry = remote.queue.pending(7).get(0);
        assertThat(entry.partitions()).containsExactly(OUT1);
        assertThat(entry.commit()).isFalse();
        assertThat(entry.producerEpoch()).isEqualTo(p.producerEpoch());
        assertThat(remote.offsets(OUT0).highWatermark()).as("self-led: appended here").isEqualTo(1L);
        assertThat(ended).as("queued is not placed: the next transaction could overtake the marker").isNotDone();
        assertThat(remote.state("tx")).isEqualTo("PrepareAbort");
        assertThat(remote.add("tx", p, OUT1)).isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);

        remote.queue.remove(7, entry); // broker 7 applied it
        remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        remote.io.runAll();

        assertThat(ended).isCompletedWithValue(KafkaError.NONE);
        assertThat(remote.state("tx")).isEqualTo("CompleteAbort");
    }

    @Test
    void aMarkerWhosePartitionMovesWhileItWaitsFollowsTheNewLeader() {
        AtomicInteger leader = new AtomicInteger(7);
        TxnFixture remote = new TxnFixture(cluster -> new Routing(cluster, leader));
        InitProducerIdResult p = remote.init("tx");
        remote.add("tx", p, OUT1);
        remote.produce("tx", p, OUT1, 0, 2);
        CompletableFuture<KafkaError> ended = remote.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), true)
                .toCompletableFuture();
        remote.io.runAll();
        assertThat(remote.queue.pending(7)).hasSize(1);

        leader.set(8);
        remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        remote.io.runAll();
        assertThat(remote.queue.pending(7)).as("replaced, not left to a broker that cannot apply it").isEmpty();
        assertThat(remote.queue.pending(8)).singleElement()
                .satisfies(q -> assertThat(q.partitions()).containsExactly(OUT1));
        assertThat(ended).isNotDone();

        leader.set(TxnFixture.BROKER_ID);
        remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        remote.io.runAll();
        remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        remote.io.runAll();

        assertThat(remote.queue.pending(8)).isEmpty();
        assertThat(remote.offsets(OUT1).highWatermark()).as("two records and the marker, written here").isEqualTo(3L);
        remote.assertStable(OUT1);
        assertThat(ended).isCompletedWithValue(KafkaError.NONE);
    }

    @Test
    void aMarkerNobodyAppliesFailsRetriablyAndLeavesTheTransactionPrepared() {
        TxnFixture remote = new TxnFixture(cluster -> new Routing(cluster, new AtomicInteger(7)));
        InitProducerIdResult p = remote.init("tx");
        remote.add("tx", p, OUT1);
        CompletableFuture<KafkaError> ended = remote.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), true)
                .toCompletableFuture();

        for (long waited = 0; waited <= TransactionServices.MARKER_DELIVERY_DEADLINE_MS;
             waited += TransactionServices.MARKER_QUEUE_POLL_MS) {
            remote.io.runAll();
            remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        }
        remote.io.runAll();

        assertThat(ended).isCompletedWithValue(KafkaError.COORDINATOR_NOT_AVAILABLE);
        assertThat(remote.state("tx")).isEqualTo("PrepareCommit");
        assertThat(remote.queue.pending(7)).as("still owed; the retry finds it").hasSize(1);
    }

    @Test
    void offsetsStagedInAGroupAnotherBrokerCoordinatesTravelThroughTheQueue() {
        TxnFixture remote = new TxnFixture(cluster -> new Routing(cluster, new AtomicInteger(7)));
        InitProducerIdResult p = remote.init("tx");
        remote.add("tx", p, OUT0);
        remote.settle(remote.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "remote-readers"));

        CompletableFuture<KafkaError> ended = remote.coordinator().endTxn("tx", p.producerId(), p.producerEpoch(), true)
                .toCompletableFuture();
        remote.io.runAll();

        MarkerQueue.QueuedMarkers entry = remote.queue.pending(7).get(0);
        assertThat(entry.partitions()).isEmpty();
        assertThat(entry.groups()).containsExactly("remote-readers");
        assertThat(ended).isNotDone();

        remote.queue.remove(7, entry); // broker 7 ended the offsets
        remote.scheduler.advance(TransactionServices.MARKER_QUEUE_POLL_MS);
        remote.io.runAll();
        assertThat(ended).isCompletedWithValue(KafkaError.NONE);
    }

    @Test
    void offsetsQueuedForAGroupCoordinatedHereAreEndedAndTheEntryRemoved() {
        List<String> ended = new java.util.ArrayList<>();
        f.txn.coordinator().bindOffsetHook((group, pid, commit) -> {
            ended.add(group + "/" + pid + "/" + commit);
            return CompletableFuture.completedFuture(null);
        });
        f.queue.enqueue(TxnFixture.BROKER_ID, new MarkerQueue.QueuedMarkers(42L, (short) 0, 0, true, List.of(),
                List.of("readers")));

        f.txn.sweeper().applyQueuedMarkers();
        f.io.runAll();

        assertThat(ended).containsExactly("readers/42/true");
        assertThat(f.queue.pending(TxnFixture.BROKER_ID)).isEmpty();
    }

    @Test
    void markersQueuedForThisBrokerAreAppliedAndRemoved() {
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, OUT0);
        f.produce("tx", p, OUT0, 0, 1);
        f.queue.enqueue(TxnFixture.BROKER_ID, new MarkerQueue.QueuedMarkers(p.producerId(),
                p.producerEpoch(), 0, true, List.of(OUT0), List.of()));

        f.txn.sweeper().applyQueuedMarkers();
        f.io.runAll();

        f.assertStable(OUT0);
        assertThat(f.queue.pending(TxnFixture.BROKER_ID)).isEmpty();
    }

    @Test
    void aQueuedEntryWaitingForOneOfItsPartitionsDoesNotAppendTheOthersAgain() {
        AtomicInteger leader = new AtomicInteger(7);
        TxnFixture target = new TxnFixture(cluster -> new Routing(cluster, leader));
        InitProducerIdResult p = target.init("tx");
        target.add("tx", p, OUT0);
        target.produce("tx", p, OUT0, 0, 1);
        MarkerQueue.QueuedMarkers entry = new MarkerQueue.QueuedMarkers(p.producerId(), p.producerEpoch(), 0, true,
                List.of(OUT0, OUT1), List.of());
        target.queue.enqueue(TxnFixture.BROKER_ID, entry);

        for (int pass = 0; pass < 3; pass++) {
            target.txn.sweeper().applyQueuedMarkers();
            target.io.runAll();
        }
        assertThat(target.offsets(OUT0).highWatermark()).as("one record, one marker").isEqualTo(2L);
        assertThat(target.queue.pending(TxnFixture.BROKER_ID)).as("out-1 is not led here yet").containsExactly(entry);

        leader.set(TxnFixture.BROKER_ID);
        target.txn.sweeper().applyQueuedMarkers();
        target.io.runAll();
        assertThat(target.offsets(OUT0).highWatermark()).isEqualTo(2L);
        assertThat(target.offsets(OUT1).highWatermark()).isEqualTo(1L);
        assertThat(target.queue.pending(TxnFixture.BROKER_ID)).isEmpty();
    }

    @Test
    void idsOfSlotsAnotherBrokerCoordinatesAreNotCoordinator() {
        TxnFixture elsewhere = new TxnFixture(cluster -> new Routing(cluster, new AtomicInteger(-1)));

        assertThat(elsewhere.settle(elsewhere.coordinator().initProducerId("tx", 60_000, null)).error())
                .isEqualTo(KafkaError.NOT_COORDINATOR);
        assertThat(elsewhere.settle(elsewhere.coordinator().list(Set.of(), Set.of())).transactions()).isEmpty();
    }

    @Test
    void stagedOffsetsSurviveAReloadOfTheGroupAndCommitLater() {
        InitProducerIdResult p = f.init("tx");
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.settle(f.groups.commitTransactionalOffsets(txnCommit(p, "g", 9L)));
        OffsetStore.StoredGroup stored = f.offsets.load("g").orElseThrow();
        assertThat(stored.pendingTransactional()).containsKey(p.producerId());

        // A new group coordinator over the same file: the staged offsets are still pending.
        GroupCoordinatorService reloaded = new GroupCoordinatorService(GroupConfig.DEFAULTS, f.offsets,
                f.topics, new StandaloneCluster("c", 0, "localhost", () -> 9092, null), f.clock, f.scheduler, f.io,
                UUID::randomUUID, f.coordinator());
        f.txn.bindGroups(reloaded);
        assertThat(f.settle(reloaded.fetchOffsets("g", List.of(IN0), true)).partitions().get(0).error())
                .isEqualTo(KafkaError.UNSTABLE_OFFSET_COMMIT);

        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.NONE);

        assertThat(f.settle(reloaded.fetchOffsets("g", List.of(IN0), true)).partitions().get(0).offset()).isEqualTo(9L);
    }

    @Test
    void aTransactionsOffsetsCommitOnlyWhereNoNewerOffsetWasCommittedMeanwhile() {
        InitProducerIdResult p = f.init("tx");
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.settle(f.groups.commitTransactionalOffsets(txnCommit(p, "g", 9L)));
        // A plain commit after the staging is newer: the transaction's offset must not overwrite it (as in Apache,
        // which applies a transaction's offset only when it was appended after the committed one).
        assertThat(f.settle(f.groups.commitOffsets(new GroupCoordinator.CommitRequest("g", "", null, -1, -1,
                List.of(new GroupCoordinator.OffsetCommit(IN0, 12L, -1, null)))))).containsEntry(IN0, KafkaError.NONE);

        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.NONE);

        assertThat(f.settle(f.groups.fetchOffsets("g", List.of(IN0), true)).partitions().get(0).offset()).isEqualTo(12L);

        // Staged after the plain commit, the next transaction's offset is the newer one.
        f.settle(f.coordinator().addOffsets("tx", p.producerId(), p.producerEpoch(), "g"));
        f.settle(f.groups.commitTransactionalOffsets(txnCommit(p, "g", 20L)));
        assertThat(f.end("tx", p, true)).isEqualTo(KafkaError.NONE);
        assertThat(f.settle(f.groups.fetchOffsets("g", List.of(IN0), true)).partitions().get(0).offset()).isEqualTo(20L);
    }

    @Test
    void aFencedProducersTransactionalOffsetsAreRefusedWithTheEpochErrorApacheVerificationGives() {
        InitProducerIdResult fenced = f.init("tx");
        f.settle(f.coordinator().addOffsets("tx", fenced.producerId(), fenced.producerEpoch(), "g"));
        f.init("tx");

        assertThat(f.settle(f.groups.commitTransactionalOffsets(txnCommit(fenced, "g", 5L))))
                .as("Apache 3.7 turns the coordinator's PRODUCER_FENCED into INVALID_PRODUCER_EPOCH, at every version")
                .containsEntry(IN0, KafkaError.INVALID_PRODUCER_EPOCH);
        assertThat(f.offsets.load("g")).as("nothing staged").isEmpty();
    }

    private static GroupCoordinator.TxnCommitRequest txnCommit(InitProducerIdResult p, String group, long offset) {
        return new GroupCoordinator.TxnCommitRequest("tx", group, p.producerId(), p.producerEpoch(), "", null, -1,
                List.of(new GroupCoordinator.OffsetCommit(IN0, offset, -1, null)));
    }

    /** Another id in {@code id}'s slot, different from {@code not}. */
    private static String sameSlotAs(String id, String not) {
        for (int i = 0; ; i++) {
            String candidate = "same-slot-" + i;
            if (!candidate.equals(id) && !candidate.equals(not) && TxnSlots.slotFor(candidate) == TxnSlots.slotFor(id)) {
                return candidate;
            }
        }
    }

    /** The standalone cluster, except that broker {@code other} leads partition 1 of every topic (or, -1: coordinates every slot). */
    private record Routing(ClusterUseCase standalone, AtomicInteger other)
            implements ClusterUseCase {
        @Override
        public String clusterId() {
            return standalone.clusterId();
        }

        @Override
        public Broker self() {
            return standalone.self();
        }

        @Override
        public List<Broker> brokers() {
            return List.of(standalone.self(), new Broker(Math.abs(other.get()), "peer", 9093));
        }

        @Override
        public int controllerId() {
            return standalone.controllerId();
        }

        @Override
        public int leaderOf(String topic, int partition) {
            return other.get() >= 0 && partition == 1 ? other.get() : standalone.self().id();
        }

        @Override
        public Optional<Broker> groupCoordinator(String groupId) {
            return other.get() >= 0 && groupId.startsWith("remote") ? Optional.of(new Broker(other.get(), "peer", 9093))
                    : standalone.groupCoordinator(groupId);
        }

        @Override
        public Optional<Broker> transactionCoordinator(String transactionalId) {
            return transactionSlotCoordinator(TxnSlots.slotFor(transactionalId));
        }

        @Override
        public Optional<Broker> transactionSlotCoordinator(int slot) {
            return other.get() < 0 ? Optional.of(new Broker(1, "peer", 9093)) : standalone.transactionSlotCoordinator(slot);
        }
    }
}
