package io.kaas.application.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.fake.WatchedLogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryAssignmentStore;
import io.kaas.application.memory.InMemoryBrokerRegistry;
import io.kaas.application.memory.InMemoryTopicCatalog;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.MetadataUseCase.PartitionMetadata;
import io.kaas.application.port.in.ProduceUseCase.Command;
import io.kaas.application.port.in.ProduceUseCase.PartitionRecords;
import io.kaas.application.port.in.ProduceUseCase.PartitionResult;
import io.kaas.application.port.out.TopicCatalog;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.BrokerHealth;
import io.kaas.domain.cluster.BrokerRow;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * Two brokers sharing one topic store, which the operator writes from the topic catalog, each with
 * its own logs: every broker knows every declared topic, a partition's log is open only on the leader
 * the assignment names, and moving it closes it on one and opens it on the other.
 */
class ClusterTopicsTest {
    private static final String TOPIC = "orders";
    private final ManualClock clock = new ManualClock();
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final InMemoryTopicStore store = new InMemoryTopicStore();
    private final InMemoryTopicCatalog catalog = InMemoryTopicCatalog.listed();
    private final InMemoryAssignmentStore assignments = new InMemoryAssignmentStore();
    private final InMemoryBrokerRegistry registry = InMemoryBrokerRegistry.of(0, 1);
    private final SequentialTopicIds ids = new SequentialTopicIds();
    private final Member b0 = new Member(0);
    private final Member b1 = new Member(1);
    private long version;

    private final class Member {
        final TopicService topics;
        final AssignmentFollower follower;
        final TakeoverDriver takeovers;
        final AssignedCluster cluster;
        final ProduceService produce;
        final List<Topic> deleted = new ArrayList<>();

        Member(int id) {
            topics = TopicService.forCluster(store, catalog, new WatchedLogEngine(new MemoryLogEngine(append -> { })) {
                @Override
                protected void answered(TopicPartition partition, String method, Object[] args) {
                }

                @Override
                public void deletePartition(TopicPartition partition) {
                    throw new AssertionError("a cluster broker removes no partition files: " + partition);
                }
            }, new BrokerSettings(id, 1, true), BrokerConfigs.of(List.of()), ids);
            topics.start();
            topics.addDeletionListener(deleted::add);
            follower = new AssignmentFollower(assignments, id, () -> 0L);
            takeovers = new TakeoverDriver(topics, id);
            cluster = new AssignedCluster("cluster", new ClusterUseCase.Broker(id, "127.0.0.1", 9092 + id), registry,
                    follower);
            produce = new ProduceService(topics, clock, scheduler);
        }

        void follow() {
            topics.refresh();
            follower.refresh();
            follower.current().ifPresent(takeovers::reconcile);
        }

        KafkaError produceTo(int partition) {
            CompletionStage<List<PartitionResult>> result = produce.produce(new Command((short) 1, 1_000,
                    List.of(new PartitionRecords(new TopicPartition(TOPIC, partition), TestBatches.plain(1)))));
            return result.toCompletableFuture().join().get(0).error();
        }
    }

    /** What the operator does with a declared topic: writes its files and reports it materialised. */
    private Topic materialize(String name, int partitions) {
        Topic topic = new Topic(name, ids.get(), partitions, Map.of());
        catalog.declare(name, name, new TopicCatalog.Declaration(partitions, Map.of()));
        store.save(topic);
        catalog.markReady(name, topic.id());
        return topic;
    }

    private void assign(Map<Integer, Leader> leaders) {
        TreeMap<TopicPartition, Leader> byPartition = new TreeMap<>(Assignment.PARTITION_ORDER);
        leaders.forEach((p, leader) -> byPartition.put(new TopicPartition(TOPIC, p), leader));
        assignments.write(new Assignment(1, ++version, 0, List.of(new BrokerRow(0, BrokerHealth.ALIVE, 0),
                new BrokerRow(1, BrokerHealth.ALIVE, 0)), byPartition, Map.of()));
        b0.follow();
        b1.follow();
    }

    @Test
    void aMaterializedTopicIsKnownToAllButOpenNowhereUntilAssigned() {
        materialize(TOPIC, 3);
        b0.follow();
        b1.follow();

        assertThat(b0.topics.byName(TOPIC)).isPresent();
        assertThat(b1.topics.byName(TOPIC)).isPresent();
        assertThat(b0.topics.openPartitions()).isEmpty();
        assertThat(b1.topics.openPartitions()).isEmpty();
        assertThat(b0.produceTo(0)).as("known, led by nobody here").isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER);
        assertThat(b0.produceTo(7)).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void eachPartitionOpensOnItsLeaderAndMovesWithTheAssignment() {
        materialize(TOPIC, 3);
        assign(Map.of(0, new Leader(0, 1), 1, new Leader(1, 1), 2, new Leader(0, 1)));

        assertThat(b0.topics.openPartitions()).containsExactlyInAnyOrder(tp(0), tp(2));
        assertThat(b1.topics.openPartitions()).containsExactly(tp(1));
        assertThat(b0.produceTo(0)).isEqualTo(KafkaError.NONE);
        assertThat(b0.produceTo(1)).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER);
        assertThat(b1.produceTo(1)).isEqualTo(KafkaError.NONE);

        assign(Map.of(0, new Leader(1, 2), 1, new Leader(1, 1), 2, new Leader(0, 1)));

        assertThat(b0.topics.openPartitions()).containsExactly(tp(2));
        assertThat(b1.topics.openPartitions()).containsExactlyInAnyOrder(tp(0), tp(1));
        assertThat(b0.produceTo(0)).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER);
        assertThat(b1.produceTo(0)).isEqualTo(KafkaError.NONE);
    }

    @Test
    void everyBrokerAnswersMetadataFromTheAssignment() {
        materialize(TOPIC, 2);
        assign(Map.of(0, new Leader(1, 7)));
        MetadataService metadata = new MetadataService(b0.topics, b0.cluster, new BrokerSettings(0, 1, true),
                Runnable::run);

        List<PartitionMetadata> partitions = metadata.describe(List.of(TOPIC)).get(0).partitions();

        assertThat(partitions).containsExactly(new PartitionMetadata(0, 1, 7, List.of(1)),
                new PartitionMetadata(1, KafkaError.LEADER_NOT_AVAILABLE, -1, -1, List.of()));
        assertThat(b0.cluster.brokers()).extracting(ClusterUseCase.Broker::id).containsExactly(0, 1);
        assertThat(b0.cluster.controllerId()).isZero();
    }

    @Test
    void aTopicNoLongerDeclaredIsForgottenEverywhereAndItsLogsAbandonedWithTheirFiles() {
        Topic topic = materialize(TOPIC, 2);
        assign(Map.of(0, new Leader(0, 1), 1, new Leader(1, 1)));

        catalog.remove(TOPIC); // the KafkaTopic is deleted; its directory stays until the operator reclaims it
        b0.follow();
        b1.follow();

        for (Member member : List.of(b0, b1)) {
            assertThat(member.topics.byName(TOPIC)).isEmpty();
            assertThat(member.topics.openPartitions()).isEmpty();
            assertThat(member.deleted).containsExactly(topic);
        }
        assertThat(b1.produceTo(1)).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(store.loadAll()).as("the operator's to remove").containsExactly(topic);
    }

    @Test
    void filesOfAnotherIncarnationOrOfNoDeclaredTopicAreNotServed() {
        Topic orphan = new Topic("orphan", ids.get(), 1, Map.of());
        store.save(orphan);
        Topic previous = new Topic(TOPIC, ids.get(), 1, Map.of());
        store.save(previous);
        catalog.declare(TOPIC, TOPIC, new TopicCatalog.Declaration(1, Map.of()));
        catalog.markReady(TOPIC, ids.get()); // a new incarnation the operator has not stamped on the volume yet

        b0.follow();

        assertThat(b0.topics.all()).isEmpty();
    }

    @Test
    void untilTheCatalogIsListedTheVolumeIsServedAsItIs() {
        InMemoryTopicCatalog unlisted = InMemoryTopicCatalog.unlisted();
        Topic onVolume = new Topic(TOPIC, ids.get(), 2, Map.of());
        store.save(onVolume);
        TopicService topics = TopicService.forCluster(store, unlisted, new MemoryLogEngine(append -> { }),
                new BrokerSettings(0, 1, true), BrokerConfigs.of(List.of()), ids);
        topics.start();

        assertThat(topics.all()).as("the API server unreachable since start: serve what the volume holds")
                .containsExactly(onVolume);

        unlisted.sync(); // listed: it declares nothing
        topics.refresh();
        assertThat(topics.all()).isEmpty();
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition(TOPIC, partition);
    }
}
