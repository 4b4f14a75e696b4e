package io.kaas.application.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreateResult;
import io.kaas.application.port.in.TopicAdminUseCase.DeleteResult;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class TopicLifecycleTest {
    private static final int BROKER = 0;
    private static final int DEFAULT_PARTITIONS = 3;
    private static final int DEFAULT = -1;

    private final InMemoryTopicStore store = new InMemoryTopicStore();
    private final MemoryLogEngine engine = new MemoryLogEngine(tp -> { });
    private final SequentialTopicIds ids = new SequentialTopicIds();
    private final TopicService topics = service(ids);

    private TopicService service(Supplier<UUID> idSource) {
        return new TopicService(store, engine,
                new BrokerSettings(BROKER, DEFAULT_PARTITIONS, true), BrokerConfigs.of(List.of()),
                idSource);
    }

    private static CreateCommand create(String name, int partitions, int replicationFactor) {
        return new CreateCommand(name, partitions, replicationFactor, Map.of(), Map.of(), false);
    }

    private static CreateCommand assigned(String name, Map<Integer, List<Integer>> assignments) {
        return new CreateCommand(name, DEFAULT, DEFAULT, assignments, Map.of(), false);
    }

    private CreateResult created(CreateCommand command) {
        CreateResult result = topics.create(command);
        assertThat(result.error()).as(result.message()).isEqualTo(KafkaError.NONE);
        return result;
    }

    @Test
    void createsATopicWithItsConfigsStoresItAndOpensItsLogs() {
        CreateResult result = created(new CreateCommand("orders", 2, 1, Map.of(),
                Map.of("retention.ms", "60000"), false));

        Topic topic = result.topic();
        assertThat(topic.name()).isEqualTo("orders");
        assertThat(topic.partitionCount()).isEqualTo(2);
        assertThat(topic.configs()).containsExactly(Map.entry("retention.ms", "60000"));
        assertThat(topic.id()).isEqualTo(SequentialTopicIds.nth(1));
        assertThat(store.loadAll()).containsExactly(topic);
        assertThat(topics.byName("orders")).contains(topic);
        assertThat(topics.byId(topic.id())).contains(topic);
        assertThat(topics.all()).containsExactly(topic);
        assertThat(topics.log(new TopicPartition("orders", 0))).isPresent();
        assertThat(topics.log(new TopicPartition("orders", 1))).isPresent();
        assertThat(topics.log(new TopicPartition("orders", 2))).isEmpty();
    }

    @Test
    void minusOneMeansTheBrokerDefaultPartitionCount() {
        assertThat(created(create("t", DEFAULT, DEFAULT)).topic().partitionCount()).isEqualTo(DEFAULT_PARTITIONS);
    }

    @Test
    void validateOnlyReturnsTheWouldBeTopicAndChangesNothing() {
        CreateResult result = topics.create(new CreateCommand("t", 4, 1, Map.of(), Map.of(), true));

        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(result.topic().partitionCount()).isEqualTo(4);
        assertThat(topics.byName("t")).isEmpty();
        assertThat(topics.log(new TopicPartition("t", 0))).isEmpty();
        assertThat(store.loadAll()).isEmpty();
        created(create("t", 1, 1));
    }

    @Test
    void validateOnlyStillReportsErrors() {
        created(create("t", 1, 1));
        assertThat(topics.create(new CreateCommand("t", 1, 1, Map.of(), Map.of(), true)).error())
                .isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
    }

    @Test
    void anExistingNameIsRefused() {
        Topic first = created(create("t", 1, 1)).topic();

        CreateResult again = topics.create(create("t", 5, 1));

        assertThat(again.error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
        assertThat(again.message()).isEqualTo("Topic 't' already exists.");
        assertThat(again.topic()).isNull();
        assertThat(topics.byName("t")).contains(first);
    }

    @Test
    void aNameCollidingWithAnExistingOneIsRefused() {
        created(create("a.b", 1, 1));

        CreateResult result = topics.create(create("a_b", 1, 1));

        assertThat(result.error()).isEqualTo(KafkaError.INVALID_TOPIC_EXCEPTION);
        assertThat(result.message()).isEqualTo("Topic 'a_b' collides with existing topic: a.b");
        assertThat(topics.byName("a_b")).isEmpty();
    }

    @Test
    void anIllegalNameIsRefusedWithTheDomainReason() {
        CreateResult result = topics.create(create("bad name", 1, 1));
        assertThat(result.error()).isEqualTo(KafkaError.INVALID_TOPIC_EXCEPTION);
        assertThat(result.message()).startsWith("Topic name is invalid: ");
        assertThat(store.loadAll()).isEmpty();
    }

    @Test
    void nonPositivePartitionCountsOtherThanMinusOneAreRefused() {
        for (int partitions : new int[] {0, -2}) {
            CreateResult result = topics.create(create("t", partitions, 1));
            assertThat(result.error()).isEqualTo(KafkaError.INVALID_PARTITIONS);
            assertThat(result.message()).isEqualTo("Number of partitions was set to an invalid non-positive value.");
        }
        assertThat(topics.all()).isEmpty();
    }

    @Test
    void nonPositiveReplicationFactorsOtherThanMinusOneAreRefused() {
        for (int rf : new int[] {0, -2}) {
            CreateResult result = topics.create(create("t", 1, rf));
            assertThat(result.error()).isEqualTo(KafkaError.INVALID_REPLICATION_FACTOR);
            assertThat(result.message())
                    .isEqualTo("Replication factor must be larger than 0, or -1 to use the default value.");
        }
        assertThat(topics.all()).isEmpty();
    }

    @Test
    void aManualAssignmentSetsThePartitionCount() {
        Topic topic = created(assigned("t", Map.of(0, List.of(BROKER), 1, List.of(BROKER)))).topic();
        assertThat(topic.partitionCount()).isEqualTo(2);
    }

    @Test
    void aManualAssignmentWithACountOrFactorIsAnInvalidRequest() {
        CreateResult withCount = topics.create(new CreateCommand("t", 2, DEFAULT, Map.of(0, List.of(BROKER)), Map.of(), false));
        CreateResult withFactor = topics.create(new CreateCommand("t", DEFAULT, 1, Map.of(0, List.of(BROKER)), Map.of(), false));

        assertThat(withCount.error()).isEqualTo(KafkaError.INVALID_REQUEST);
        assertThat(withFactor.error()).isEqualTo(KafkaError.INVALID_REQUEST);
        assertThat(topics.all()).isEmpty();
    }

    @Test
    void aManualAssignmentMustNumberPartitionsWithoutGaps() {
        CreateResult result = topics.create(assigned("t", Map.of(0, List.of(BROKER), 2, List.of(BROKER))));
        assertThat(result.error()).isEqualTo(KafkaError.INVALID_REPLICA_ASSIGNMENT);
        assertThat(result.message()).isEqualTo("partitions should be a consecutive 0-based integer sequence");
    }

    @Test
    void aManualAssignmentMayNotHaveAnEmptyReplicaList() {
        CreateResult result = topics.create(assigned("t", Map.of(0, List.of())));
        assertThat(result.error()).isEqualTo(KafkaError.INVALID_REPLICA_ASSIGNMENT);
        assertThat(result.message()).isEqualTo("The manual partition assignment includes an empty replica list.");
    }

    @Test
    void aManualAssignmentMayNameOnlyRegisteredBrokers() {
        CreateResult result = topics.create(assigned("t", Map.of(0, List.of(BROKER, 7))));
        assertThat(result.error()).isEqualTo(KafkaError.INVALID_REPLICA_ASSIGNMENT);
        assertThat(result.message())
                .isEqualTo("The manual partition assignment includes broker 7, but no such broker is registered.");
    }

    @Test
    void aManualAssignmentMayNotRepeatABroker() {
        CreateResult result = topics.create(assigned("t", Map.of(0, List.of(BROKER, BROKER))));
        assertThat(result.error()).isEqualTo(KafkaError.INVALID_REPLICA_ASSIGNMENT);
        assertThat(result.message()).isEqualTo("The manual partition assignment includes the broker 0 more than once.");
        assertThat(topics.all()).isEmpty();
    }

    @Test
    void topicIdsSkipReservedAndDashLeadingValues() {
        UUID good = new UUID(5L, 5L);
        Queue<UUID> sequence = new ArrayDeque<>(List.of(new UUID(0L, 0L), new UUID(0L, 1L),
                new UUID(62L << 58, 1L), good));
        TopicService service = service(sequence::remove);

        assertThat(service.create(create("t", 1, 1)).topic().id()).isEqualTo(good);
    }

    @Test
    void topicIdsAreNotReused() {
        Queue<UUID> sequence = new ArrayDeque<>(List.of(new UUID(5L, 5L), new UUID(5L, 5L), new UUID(6L, 6L)));
        TopicService service = service(sequence::remove);

        service.create(create("a", 1, 1));
        assertThat(service.create(create("b", 1, 1)).topic().id()).isEqualTo(new UUID(6L, 6L));
    }

    @Test
    void deleteByNameRemovesTheTopicItsLogsAndItsStoredDefinition() {
        Topic topic = created(create("t", 2, 1)).topic();

        DeleteResult result = topics.deleteByName("t");

        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(result.topic()).isEqualTo(topic);
        assertThat(topics.byName("t")).isEmpty();
        assertThat(topics.byId(topic.id())).isEmpty();
        assertThat(topics.log(topic.partition(0))).isEmpty();
        assertThat(store.loadAll()).isEmpty();
    }

    @Test
    void aRecreatedTopicGetsANewIdAndAnEmptyLog() {
        Topic first = created(create("t", 1, 1)).topic();
        topics.log(first.partition(0)).orElseThrow().append(TestBatches.plain(3), 0L);
        topics.deleteByName("t");

        Topic second = created(create("t", 1, 1)).topic();

        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(topics.log(second.partition(0)).orElseThrow().offsets()).isEqualTo(LogOffsets.EMPTY);
    }

    @Test
    void deleteByIdRemovesTheTopic() {
        Topic topic = created(create("t", 1, 1)).topic();

        assertThat(topics.deleteById(topic.id()).error()).isEqualTo(KafkaError.NONE);

        assertThat(topics.byName("t")).isEmpty();
        assertThat(store.loadAll()).isEmpty();
    }

    @Test
    void deletingAnUnknownTopicFailsWithTheMatchingError() {
        DeleteResult byName = topics.deleteByName("nope");
        DeleteResult byId = topics.deleteById(new UUID(9L, 9L));

        assertThat(byName.error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(byName.topic()).isNull();
        assertThat(byId.error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_ID);
        assertThat(byId.topic()).isNull();
    }

    @Test
    void startLoadsTheStoredTopicsAndOpensTheirLogs() {
        Topic stored = new Topic("kept", new UUID(3L, 3L), 2, Map.of("cleanup.policy", "compact"));
        store.save(stored);
        TopicService restarted = service(ids);
        assertThat(restarted.byName("kept")).isEmpty();

        restarted.start();

        assertThat(restarted.byName("kept")).contains(stored);
        assertThat(restarted.byId(stored.id())).contains(stored);
        assertThat(restarted.log(stored.partition(1))).isPresent();
        assertThat(restarted.create(create("kept", 1, 1)).error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
    }
}
