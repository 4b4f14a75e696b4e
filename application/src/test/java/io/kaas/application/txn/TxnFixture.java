package io.kaas.application.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.memory.InMemoryMarkerQueue;
import io.kaas.application.memory.InMemoryOffsetStore;
import io.kaas.application.memory.InMemoryProducerFenceLog;
import io.kaas.application.memory.InMemoryProducerIdBlockStore;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.memory.InMemoryTransactionStateStore;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.application.port.out.TransactionStateStore;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One broker's transaction machinery over memory storage, with a manual clock and scheduler and
 * an I/O executor that runs only when told (so a test sees the moment before a write is durable),
 * the group coordinator bound to it, and a slot store whose writes can be made to fail.
 */
final class TxnFixture {
    static final int BROKER_ID = 0;
    static final TopicPartition OUT0 = new TopicPartition("out", 0);
    static final TopicPartition OUT1 = new TopicPartition("out", 1);
    static final TopicPartition IN0 = new TopicPartition("in", 0);
    static final TransactionSettings SETTINGS = new TransactionSettings(900_000, 10_000, 3_600_000, 60_000, true);

    final ManualClock clock = new ManualClock();
    final ManualScheduler scheduler = new ManualScheduler(clock);
    final QueuedExecutor io = new QueuedExecutor();
    final FlakyStore slots = new FlakyStore();
    final InMemoryMarkerQueue queue = new InMemoryMarkerQueue();
    final InMemoryProducerFenceLog fenceLog = new InMemoryProducerFenceLog(BROKER_ID);
    final InMemoryOffsetStore offsets = new InMemoryOffsetStore();
    final TopicService topics;
    final TransactionServices txn;
    final GroupCoordinatorService groups;
    final ProduceService produce;

    TxnFixture() {
        this(cluster -> cluster);
    }

    /** @param routing wraps the standalone cluster, e.g. to put partitions or slots on another broker */
    TxnFixture(Function<ClusterUseCase, ClusterUseCase> routing) {
        topics = new TopicService(new InMemoryTopicStore(), new MemoryLogEngine(tp -> { }),
                new BrokerSettings(BROKER_ID, 1, false, 100), BrokerConfigs.of(List.of()), UUID::randomUUID);
        topics.start();
        create("out", 2);
        create("in", 1);
        ClusterUseCase cluster = routing.apply(new StandaloneCluster("c", BROKER_ID, "localhost", () -> 9092, null));
        txn = TransactionServices.create(SETTINGS, slots, queue, fenceLog, topics, cluster,
                new ProducerIdService(BROKER_ID, new InMemoryProducerIdBlockStore(), io), clock, scheduler, io);
        groups = new GroupCoordinatorService(GroupConfig.DEFAULTS, offsets, topics, cluster, clock, scheduler, io,
                UUID::randomUUID, txn.coordinator());
        txn.bindGroups(groups);
        txn.coordinator().load();
        produce = new ProduceService(topics, clock, scheduler, txn.coordinator(), WriteFence.OPEN,
                BrokerMetrics.unobserved());
    }

    void create(String topic, int partitions) {
        topics.create(new TopicAdminUseCase.CreateCommand(topic, partitions, -1, Map.of(), Map.of(), false));
    }

    TransactionCoordinatorService coordinator() {
        return txn.coordinator();
    }

    /** Runs the queued I/O, then the stage's value (null if still pending). */
    <T> T settle(CompletionStage<T> stage) {
        io.runAll();
        return stage.toCompletableFuture().getNow(null);
    }

    TransactionCoordinator.InitProducerIdResult init(String id) {
        TransactionCoordinator.InitProducerIdResult result = settle(coordinator().initProducerId(id, 60_000, null));
        if (result.error() == KafkaError.CONCURRENT_TRANSACTIONS) {
            result = settle(coordinator().initProducerId(id, 60_000, null));
        }
        return result;
    }

    KafkaError add(String id, TransactionCoordinator.InitProducerIdResult p, TopicPartition... partitions) {
        Map<TopicPartition, KafkaError> errors = settle(coordinator().addPartitions(id, p.producerId(), p.producerEpoch(),
                Set.of(partitions)));
        return errors.values().iterator().next();
    }

    /** Appends a transactional batch as a producer would (verified); returns the partition's error. */
    KafkaError produce(String id, TransactionCoordinator.InitProducerIdResult p, TopicPartition tp, int seq, int records) {
        ByteBuffer batch = TestBatches.batch().transactional().producer(p.producerId(), p.producerEpoch(), seq)
                .records(records).build();
        return settle(produce.produce(new ProduceUseCase.Command(id, (short) -1, 30_000,
                List.of(new ProduceUseCase.PartitionRecords(tp, batch))))).get(0).error();
    }

    KafkaError end(String id, TransactionCoordinator.InitProducerIdResult p, boolean commit) {
        return settle(coordinator().endTxn(id, p.producerId(), p.producerEpoch(), commit));
    }

    String state(String id) {
        return settle(coordinator().describe(List.of(id))).get(0).state();
    }

    PartitionLog log(TopicPartition tp) {
        return topics.log(tp).orElseThrow();
    }

    LogOffsets offsets(TopicPartition tp) {
        return log(tp).offsets();
    }

    void assertStable(TopicPartition tp) {
        assertThat(offsets(tp).lastStableOffset()).as("LSO of %s", tp).isEqualTo(offsets(tp).highWatermark());
    }

    /** The slot store: counts writes and fails them while {@link #failing} is set. */
    static final class FlakyStore implements TransactionStateStore {
        final InMemoryTransactionStateStore delegate = new InMemoryTransactionStateStore();
        final AtomicBoolean failing = new AtomicBoolean();
        int saves;

        @Override
        public List<Transaction> load(int slot) {
            return delegate.load(slot);
        }

        @Override
        public void save(int slot, List<Transaction> transactions) {
            if (failing.get()) {
                throw new UncheckedIOException(new IOException("disk gone"));
            }
            saves++;
            delegate.save(slot, transactions);
        }
    }
}
