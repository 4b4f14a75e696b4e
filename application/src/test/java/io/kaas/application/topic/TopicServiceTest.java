package io.kaas.application.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.TestBroker;
import io.kaas.application.fake.WatchedLogEngine;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreatePartitionsCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreateResult;
import io.kaas.application.port.out.TopicStore;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Creating, growing and reconfiguring topics: Apache's rules, and nothing left half-done on failure. */
class TopicServiceTest {
    private static final int DEFAULT = -1;

    private final TestBroker broker = new TestBroker();

    // ---------------------------------------------------------------- create

    @Test
    void aCreatedTopicIsStoredWithItsOverridesAndServed() {
        Topic topic = broker.create("orders", 3, Map.of("retention.ms", "60000"));

        assertThat(broker.store.loadAll()).singleElement().isEqualTo(topic);
        assertThat(broker.topics.log(new TopicPartition("orders", 2))).isPresent();
        assertThat(broker.topics.config("orders")).hasValueSatisfying(c -> assertThat(c.retentionMs()).isEqualTo(60_000));
    }

    @Test
    void badConfigsFailTheCreationAndLeaveNothingBehind() {
        CreateResult result = create("orders", 2, Map.of("retention.ms", "soon"), false);

        assertThat(result.error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(result.message()).isEqualTo("Invalid value soon for configuration retention.ms: Not a number of type LONG");
        assertNothingExists();
        assertThat(create("orders", 2, Map.of("segment.bytes.typo", "1"), false).message())
                .isEqualTo("Unknown topic config name: segment.bytes.typo");
    }

    @Test
    void validateOnlyChecksEverythingACreationWouldAndCreatesNothing() {
        broker.create("exists", 1);

        assertThat(create("exists", 1, Map.of(), true).error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
        assertThat(create("new", 1, Map.of("cleanup.policy", "shred"), true).error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(create("new", TestBroker.MAX_PARTITIONS + 1, Map.of(), true).error())
                .isEqualTo(KafkaError.POLICY_VIOLATION);
        CreateResult ok = create("new", 4, Map.of("retention.ms", "1"), true);
        assertThat(ok.error()).isEqualTo(KafkaError.NONE);
        assertThat(ok.topic().partitionCount()).isEqualTo(4);
        assertThat(broker.topics.byName("new")).isEmpty();
        assertThat(broker.store.loadAll()).extracting(Topic::name).containsExactly("exists");
    }

    @Test
    void moreThanThePartitionLimitIsAPolicyViolation() {
        CreateResult result = create("wide", TestBroker.MAX_PARTITIONS + 1, Map.of(), false);

        assertThat(result.error()).isEqualTo(KafkaError.POLICY_VIOLATION);
        assertThat(result.message()).contains("9 partitions", "KAAS_MAX_PARTITIONS_PER_TOPIC");
        assertNothingExists();
        assertThat(create("wide", TestBroker.MAX_PARTITIONS, Map.of(), false).error()).isEqualTo(KafkaError.NONE);
    }

    @Test
    void replicationFactorIsAcceptedAndAManualAssignmentChecked() {
        assertThat(broker.topics.create(new CreateCommand("rf3", 2, 3, Map.of(), Map.of(), false)).error())
                .as("one copy on shared storage stands for any factor").isEqualTo(KafkaError.NONE);
        assertThat(broker.topics.create(new CreateCommand("rf0", 2, 0, Map.of(), Map.of(), false)).error())
                .isEqualTo(KafkaError.INVALID_REPLICATION_FACTOR);
        CreateResult otherBroker = broker.topics.create(new CreateCommand("manual", DEFAULT, DEFAULT,
                Map.of(0, List.of(TestBroker.BROKER_ID), 1, List.of(99)), Map.of(), false));
        assertThat(otherBroker.error()).isEqualTo(KafkaError.INVALID_REPLICA_ASSIGNMENT);
        assertThat(otherBroker.message())
                .isEqualTo("The manual partition assignment includes broker 99, but no such broker is registered.");
        assertThat(broker.topics.create(new CreateCommand("manual", 2, DEFAULT, Map.of(0, List.of(TestBroker.BROKER_ID)),
                Map.of(), false)).message())
                .isEqualTo("A manual partition assignment was specified, but numPartitions was not set to -1.");
        assertThat(broker.topics.create(new CreateCommand("manual", DEFAULT, DEFAULT,
                Map.of(0, List.of(TestBroker.BROKER_ID)), Map.of(), false)).error()).isEqualTo(KafkaError.NONE);
    }

    @Test
    void aFailureWhileOpeningPartitionsUndoesTheWholeCreation() {
        FailingEngine engine = new FailingEngine();
        TestBroker failing = new TestBroker(engine);
        engine.failOn = new TopicPartition("orders", 2);

        CreateResult result = failing.topics.create(new CreateCommand("orders", 4, DEFAULT, Map.of(), Map.of(), false));

        assertThat(result.error()).isEqualTo(KafkaError.UNKNOWN_SERVER_ERROR);
        assertThat(failing.store.loadAll()).isEmpty();
        assertThat(failing.topics.all()).isEmpty();
        assertThat(failing.topics.logs()).isEmpty();
        assertThat(engine.open).as("partitions opened before the failure are removed again").isEmpty();
    }

    // ---------------------------------------------------------------- grow

    @Test
    void createPartitionsGrowsTheTopicAndServesTheNewPartitionsEmpty() {
        Topic before = broker.create("orders", 2);

        Outcome outcome = broker.topics.createPartitions(new CreatePartitionsCommand("orders", 5, null, false));

        assertThat(outcome).isEqualTo(Outcome.OK);
        Topic after = broker.topics.byName("orders").orElseThrow();
        assertThat(after.partitionCount()).isEqualTo(5);
        assertThat(after.id()).isEqualTo(before.id());
        assertThat(broker.store.loadAll()).singleElement().extracting(Topic::partitionCount).isEqualTo(5);
        for (int p = 0; p < 5; p++) {
            assertThat(broker.topics.log(new TopicPartition("orders", p))).as("partition %d", p).isPresent();
        }
        assertThat(broker.topics.log(new TopicPartition("orders", 4)).orElseThrow().offsets().logEndOffset()).isZero();
    }

    @Test
    void theSameCountOrFewerPartitionsIsInvalid() {
        broker.create("orders", 3);

        assertThat(grow("orders", 3)).isEqualTo(new Outcome(KafkaError.INVALID_PARTITIONS,
                "Topic already has 3 partition(s)."));
        assertThat(grow("orders", 2)).isEqualTo(new Outcome(KafkaError.INVALID_PARTITIONS,
                "The topic orders currently has 3 partition(s); 2 would not be an increase."));
        assertThat(grow("missing", 4).error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(broker.topics.byName("orders").orElseThrow().partitionCount()).isEqualTo(3);
    }

    @Test
    void growingPastTheLimitIsAPolicyViolation() {
        broker.create("orders", 3);

        assertThat(grow("orders", TestBroker.MAX_PARTITIONS + 1).error()).isEqualTo(KafkaError.POLICY_VIOLATION);
        assertThat(broker.topics.byName("orders").orElseThrow().partitionCount()).isEqualTo(3);
        assertThat(broker.topics.log(new TopicPartition("orders", 3))).isEmpty();
    }

    @Test
    void assignmentsMustCoverEveryNewPartitionWithThisBroker() {
        broker.create("orders", 1);

        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("orders", 3,
                List.of(List.of(TestBroker.BROKER_ID)), false))).isEqualTo(new Outcome(
                KafkaError.INVALID_REPLICA_ASSIGNMENT, "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified."));
        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("orders", 2,
                List.of(List.of(TestBroker.BROKER_ID, TestBroker.BROKER_ID)), false)).message())
                .isEqualTo("The manual partition assignment includes the broker 3 more than once.");
        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("orders", 2,
                List.of(List.of(TestBroker.BROKER_ID)), false))).isEqualTo(Outcome.OK);
    }

    @Test
    void validateOnlyGrowsNothing() {
        broker.create("orders", 1);

        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("orders", 4, null, true))).isEqualTo(Outcome.OK);
        assertThat(broker.topics.byName("orders").orElseThrow().partitionCount()).isEqualTo(1);
        assertThat(broker.topics.log(new TopicPartition("orders", 1))).isEmpty();
    }

    @Test
    void aFailedGrowKeepsTheOldCountAndRemovesTheHalfMadePartitions() {
        FailingEngine engine = new FailingEngine();
        TestBroker failing = new TestBroker(engine);
        failing.create("orders", 2);
        engine.failOn = new TopicPartition("orders", 3);

        Outcome outcome = failing.topics.createPartitions(new CreatePartitionsCommand("orders", 4, null, false));

        assertThat(outcome.error()).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(failing.topics.byName("orders").orElseThrow().partitionCount()).isEqualTo(2);
        assertThat(failing.store.loadAll()).singleElement().extracting(Topic::partitionCount).isEqualTo(2);
        assertThat(engine.open).containsExactlyInAnyOrder(new TopicPartition("orders", 0), new TopicPartition("orders", 1));
    }

    @Test
    void aGrowTheStoreCannotRecordIsUndone() {
        FailingStore store = new FailingStore();
        FailingEngine engine = new FailingEngine();
        TestBroker failing = new TestBroker(engine, store);
        failing.create("orders", 1);
        store.failSaves = true;

        assertThat(failing.topics.createPartitions(new CreatePartitionsCommand("orders", 3, null, false)).error())
                .isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(failing.topics.byName("orders").orElseThrow().partitionCount()).isEqualTo(1);
        assertThat(engine.open).containsExactly(new TopicPartition("orders", 0));
    }

    @Test
    void aDeletionTheStoreCannotMakeDurableKeepsTheTopicServedAndStored() {
        FailingStore store = new FailingStore();
        FailingEngine engine = new FailingEngine();
        TestBroker failing = new TestBroker(engine, store);
        Topic orders = failing.create("orders", 2);
        store.failDeletes = true;

        assertThat(failing.topics.deleteByName("orders").error()).isEqualTo(KafkaError.UNKNOWN_SERVER_ERROR);

        // A restart may still find it: it must not vanish meanwhile (its transactions would end without markers there).
        assertThat(failing.topics.byName("orders")).contains(orders);
        assertThat(failing.topics.log(new TopicPartition("orders", 1))).isPresent();
        assertThat(engine.open).containsExactlyInAnyOrder(new TopicPartition("orders", 0), new TopicPartition("orders", 1));
        assertThat(store.loadAll()).containsExactly(orders);

        store.failDeletes = false;
        assertThat(failing.topics.deleteByName("orders").error()).isEqualTo(KafkaError.NONE);
        assertThat(engine.open).isEmpty();
        assertThat(store.loadAll()).isEmpty();
    }

    // ---------------------------------------------------------------- configure

    @Test
    void changedConfigsAreStoredAndServedAtOnce() {
        broker.create("orders", 1, Map.of("retention.ms", "1000"));

        Outcome outcome = broker.topics.updateConfigs("orders", current -> Map.of("segment.ms", "5000"), false);

        assertThat(outcome).isEqualTo(Outcome.OK);
        assertThat(broker.store.loadAll()).singleElement().extracting(Topic::configs).isEqualTo(Map.of("segment.ms", "5000"));
        assertThat(broker.topics.config("orders")).hasValueSatisfying(c -> {
            assertThat(c.segmentMs()).isEqualTo(5000);
            assertThat(c.retentionMs()).as("back to the broker's default").isEqualTo(Long.parseLong(TestBroker.RETENTION_MS));
        });
    }

    @Test
    void aChangedConfigReachesEveryPartitionLog() {
        FailingEngine engine = new FailingEngine();
        TestBroker recording = new TestBroker(engine);
        recording.create("orders", 2);

        recording.topics.updateConfigs("orders", current -> Map.of("retention.bytes", "1234"), false);

        assertThat(engine.updates).hasSize(2).allSatisfy(c -> assertThat(c.retentionBytes()).isEqualTo(1234));
    }

    @Test
    void invalidChangesAreRefusedBeforeTheTopicIsLookedUp() {
        broker.create("orders", 1);

        assertThat(broker.topics.updateConfigs("missing", c -> Map.of("retention.ms", "x"), false).error())
                .isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(broker.topics.updateConfigs("missing", c -> Map.of("retention.ms", "1"), false))
                .isEqualTo(new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "The topic 'missing' does not exist."));
        assertThat(broker.topics.updateConfigs("orders", c -> Map.of("retention.ms", "1"), true)).isEqualTo(Outcome.OK);
        assertThat(broker.topics.byName("orders").orElseThrow().configs()).as("validate only").isEmpty();
    }

    @Test
    void aRestartServesTheStoredTopicsWithTheirConfigs() {
        broker.create("orders", 2, Map.of("cleanup.policy", "compact"));
        broker.topics.createPartitions(new CreatePartitionsCommand("orders", 3, null, false));

        TestBroker restarted = new TestBroker(new MemoryLogEngine(tp -> { }), broker.store);

        assertThat(restarted.topics.byName("orders")).hasValueSatisfying(t -> assertThat(t.partitionCount()).isEqualTo(3));
        assertThat(restarted.topics.config("orders")).hasValueSatisfying(c -> assertThat(c.deleteRetention()).isFalse());
    }

    // ---------------------------------------------------------------- controller mutation quota

    @Test
    void mutationsAreChargedTheirPartitionsOnlyOnceEveryOtherCheckPassedAndARefusalChangesNothing() {
        CountingQuota quota = new CountingQuota(8);
        broker.topics.create(new CreateCommand("exists", 2, DEFAULT, Map.of(), Map.of(), false), quota);
        assertThat(quota.charged).containsExactly(2);

        assertThat(broker.topics.create(new CreateCommand("exists", 3, DEFAULT, Map.of(), Map.of(), false), quota)
                .error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
        assertThat(broker.topics.create(new CreateCommand("bad", 3, DEFAULT, Map.of(), Map.of("retention.ms", "x"),
                false), quota).error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(quota.charged).as("refused requests charge nothing").containsExactly(2);

        assertThat(broker.topics.create(new CreateCommand("probe", 3, DEFAULT, Map.of(), Map.of(), true), quota)
                .error()).isEqualTo(KafkaError.NONE);
        assertThat(quota.charged).as("a validation is charged, as Apache's controller does").containsExactly(2, 3);
        quota.left = 1;
        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("exists", 5, null, false), quota))
                .isEqualTo(MutationQuota.EXCEEDED);
        assertThat(broker.topics.byName("exists").orElseThrow().partitionCount()).isEqualTo(2);
        assertThat(broker.topics.deleteByName("exists", quota).error()).isEqualTo(KafkaError.THROTTLING_QUOTA_EXCEEDED);
        assertThat(broker.topics.byName("exists")).as("a refused deletion keeps the topic").isPresent();

        quota.left = 100;
        assertThat(broker.topics.createPartitions(new CreatePartitionsCommand("exists", 5, null, false), quota))
                .isEqualTo(Outcome.OK);
        assertThat(broker.topics.deleteByName("exists", quota).error()).isEqualTo(KafkaError.NONE);
        assertThat(quota.charged).as("the partitions added, then all five deleted").containsExactly(2, 3, 3, 5);
    }

    /** A strict quota with a fixed number of partitions left: a mutation needing more is refused. */
    private static final class CountingQuota implements MutationQuota {
        final List<Integer> charged = new ArrayList<>();
        int left;

        CountingQuota(int left) {
            this.left = left;
        }

        @Override
        public boolean tryCharge(int partitions) {
            if (partitions > left) {
                return false;
            }
            left -= partitions;
            charged.add(partitions);
            return true;
        }

        @Override
        public int throttleTimeMs() {
            return 0;
        }
    }

    private CreateResult create(String name, int partitions, Map<String, String> configs, boolean validateOnly) {
        return broker.topics.create(new CreateCommand(name, partitions, DEFAULT, Map.of(), configs, validateOnly));
    }

    private Outcome grow(String name, int count) {
        return broker.topics.createPartitions(new CreatePartitionsCommand(name, count, null, false));
    }

    private void assertNothingExists() {
        assertThat(broker.store.loadAll()).isEmpty();
        assertThat(broker.topics.all()).isEmpty();
        assertThat(broker.topics.logs()).isEmpty();
    }

    /** Memory logs, a chosen partition that cannot be opened, and a record of what is open and reconfigured. */
    private static final class FailingEngine extends WatchedLogEngine {
        final Set<TopicPartition> open = new HashSet<>();
        final List<LogConfig> updates = new ArrayList<>();
        TopicPartition failOn;

        FailingEngine() {
            super(new MemoryLogEngine(tp -> { }));
        }

        @Override
        public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
            if (partition.equals(failOn)) {
                throw new UncheckedIOException(new IOException("disk on fire"));
            }
            open.add(partition);
            return super.open(topic, partition, config);
        }

        @Override
        public void deletePartition(TopicPartition partition) {
            open.remove(partition);
            super.deletePartition(partition);
        }

        @Override
        protected void answered(TopicPartition partition, String method, Object[] args) {
            if (method.equals("updateConfig")) {
                updates.add((LogConfig) args[0]);
            }
        }
    }

    /** A store whose saves can be made to fail. */
    private static final class FailingStore implements TopicStore {
        private final InMemoryTopicStore delegate = new InMemoryTopicStore();
        boolean failSaves;
        boolean failDeletes;

        @Override
        public List<Topic> loadAll() {
            return delegate.loadAll();
        }

        @Override
        public void save(Topic topic) {
            if (failSaves) {
                throw new UncheckedIOException(new IOException("read-only volume"));
            }
            delegate.save(topic);
        }

        @Override
        public void delete(Topic topic) {
            if (failDeletes) {
                throw new UncheckedIOException(new IOException("fsync failed"));
            }
            delegate.delete(topic);
        }
    }
}
