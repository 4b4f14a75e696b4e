package io.kaas.application.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.MetadataService;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryTopicCatalog;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ConfigUseCase.Resource;
import io.kaas.application.port.in.MetadataUseCase.TopicMetadata;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreatePartitionsCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreateResult;
import io.kaas.application.port.in.TopicAdminUseCase.DeleteResult;
import io.kaas.application.port.out.TopicCatalog.Declaration;
import io.kaas.application.port.out.TopicCatalog.Declared;
import io.kaas.application.port.out.TopicCatalog.Refusal;
import io.kaas.application.port.out.TopicCatalog.Result;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.TopicConfigs.Change;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * A cluster broker's topic admin APIs against a catalog the test holds, with the test playing the operator (it
 * materialises a declaration on the shared store and reports it ready) and the control round (it refreshes the served
 * topics): writes become declarations, answers come once this broker serves the result, refusals and timeouts are
 * Apache's errors.
 */
class ClusterTopicAdminTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final String TOPIC = "orders";

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final InMemoryTopicStore volume = new InMemoryTopicStore();
    private final InMemoryTopicCatalog catalog = InMemoryTopicCatalog.listed();
    private final SequentialTopicIds ids = new SequentialTopicIds();
    private final BrokerSettings settings = new BrokerSettings(0, 1, true, 8);
    private final BrokerConfigs brokerConfigs = BrokerConfigs.of(List.of());
    private final TopicService topics = TopicService.forCluster(volume, catalog, new MemoryLogEngine(tp -> { }),
            settings, brokerConfigs, ids);
    private final ClusterTopicAdmin admin = new ClusterTopicAdmin(topics, catalog, settings, brokerConfigs,
            id -> id == 0, clock, scheduler, Runnable::run);

    ClusterTopicAdminTest() {
        topics.start();
    }

    // ---------------------------------------------------------------- create

    @Test
    void aCreationIsADeclarationAnsweredOnceMaterializedAndServedWithTheMintedId() {
        CompletableFuture<CreateResult> created = create(TOPIC, 3, Map.of("retention.ms", "60000"));

        assertThat(catalog.view().resource(TOPIC)).map(Declared::declaration)
                .hasValue(new Declaration(3, Map.of("retention.ms", "60000")));
        assertThat(created).isNotDone();
        UUID id = operate(TOPIC);
        assertThat(created).as("materialised, not served here yet").isNotDone();

        round();

        assertThat(created.join().error()).isEqualTo(KafkaError.NONE);
        assertThat(created.join().topic()).isEqualTo(new Topic(TOPIC, id, 3, Map.of("retention.ms", "60000")));
        assertThat(volume.loadAll()).as("written by the operator alone").hasSize(1);
    }

    @Test
    void theOperatorsRefusalIsApachesErrorAndLeavesNoDeclarationBehind() {
        CompletableFuture<CreateResult> created = create(TOPIC, 1, Map.of());

        catalog.refuse(TOPIC, Refusal.INVALID_CONFIG, "Invalid value for configuration retention.ms");

        assertThat(created.join().error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(created.join().message()).isEqualTo("Invalid value for configuration retention.ms");
        assertThat(catalog.view().resources()).isEmpty();
        assertThat(catalog.writes()).containsExactly("create orders", "delete orders");
    }

    @Test
    void aTopicTheCatalogOrTheVolumeHoldsAlreadyExists() {
        catalog.declare("orders-by-hand", TOPIC, new Declaration(1, Map.of()));
        materialized("audit.log", 1);

        assertThat(create(TOPIC, 1, Map.of()).join().error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
        assertThat(create("audit.log", 1, Map.of()).join().error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
        assertThat(create("audit_log", 1, Map.of()).join().error()).as("collides with audit.log")
                .isEqualTo(KafkaError.INVALID_TOPIC_EXCEPTION);
        assertThat(catalog.writes()).as("nothing written for any").isEmpty();

        catalog.failNext(Result.ALREADY_EXISTS); // created elsewhere since this broker's view
        assertThat(create("payments", 1, Map.of()).join().error()).isEqualTo(KafkaError.TOPIC_ALREADY_EXISTS);
    }

    @Test
    void whatApacheRefusesIsRefusedBeforeAnythingIsWritten() {
        assertThat(create(TOPIC, 1, Map.of("retention.ms", "soon")).join().error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(create(TOPIC, 0, Map.of()).join().error()).isEqualTo(KafkaError.INVALID_PARTITIONS);
        assertThat(create(TOPIC, 9, Map.of()).join().error()).isEqualTo(KafkaError.POLICY_VIOLATION);
        assertThat(create("__internal", 1, Map.of()).join().error()).isEqualTo(KafkaError.INVALID_TOPIC_EXCEPTION);
        CreateResult validated = admin.create(new CreateCommand(TOPIC, 4, -1, Map.of(), Map.of(), true), TIMEOUT_MS)
                .toCompletableFuture().join();
        assertThat(validated.error()).isEqualTo(KafkaError.NONE);
        assertThat(validated.topic().partitionCount()).isEqualTo(4);

        assertThat(catalog.writes()).isEmpty();
    }

    @Test
    void notServedWithinTheTimeoutIsRequestTimedOutAndTheDeclarationStays() {
        CompletableFuture<CreateResult> created = admin.create(new CreateCommand(TOPIC, 2, -1, Map.of(), Map.of(),
                false), 5_000).toCompletableFuture();

        scheduler.advance(4_999);
        assertThat(created).isNotDone();
        scheduler.advance(1);

        assertThat(created.join().error()).isEqualTo(KafkaError.REQUEST_TIMED_OUT);
        assertThat(catalog.view().resource(TOPIC)).as("it may still be materialised, as in Apache").isPresent();
    }

    @Test
    void anUnreachableCatalogIsRetriedWithinTheTimeoutAndARefusingOneIsNot() {
        catalog.failNext(Result.UNAVAILABLE, Result.UNAVAILABLE);
        CompletableFuture<CreateResult> created = create(TOPIC, 1, Map.of());
        assertThat(catalog.writes()).hasSize(1);

        scheduler.advance(100);
        assertThat(catalog.writes()).hasSize(2);
        scheduler.advance(200);
        assertThat(catalog.view().resource(TOPIC)).isPresent();
        operate(TOPIC);
        round();
        assertThat(created.join().error()).isEqualTo(KafkaError.NONE);

        catalog.failNext(Result.UNAVAILABLE, Result.UNAVAILABLE); // at 0 and 100 ms; 300 ms is past the timeout
        CompletableFuture<CreateResult> late = admin.create(new CreateCommand("payments", 1, -1, Map.of(), Map.of(),
                false), 250).toCompletableFuture();
        scheduler.advance(250);
        assertThat(late.join().error()).isEqualTo(KafkaError.REQUEST_TIMED_OUT);

        catalog.failNext(Result.FORBIDDEN);
        assertThat(create("refunds", 1, Map.of()).join().error()).isEqualTo(KafkaError.CLUSTER_AUTHORIZATION_FAILED);
    }

    // ---------------------------------------------------------------- grow and configure

    @Test
    void growingPatchesTheDeclarationAndAnswersOnceTheNewPartitionsAreServed() {
        materialized(TOPIC, 2);

        assertThat(grow(TOPIC, 2).join().error()).isEqualTo(KafkaError.INVALID_PARTITIONS);
        assertThat(grow(TOPIC, 1).join().error()).isEqualTo(KafkaError.INVALID_PARTITIONS);
        assertThat(grow("unknown", 3).join().error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        CompletableFuture<Outcome> grown = grow(TOPIC, 4);

        assertThat(catalog.view().resource(TOPIC).orElseThrow().declaration().partitions()).isEqualTo(4);
        assertThat(grown).isNotDone();
        operate(TOPIC);
        round();
        assertThat(grown.join()).isEqualTo(Outcome.OK);
        assertThat(topics.byName(TOPIC).orElseThrow().partitionCount()).isEqualTo(4);
    }

    @Test
    void configChangesPatchTheDeclarationAndAnswerOnceTheCatalogTookThem() {
        materialized(TOPIC, 1);
        ConfigService configs = new ConfigService(topics, admin, BrokerConfigService.fixed(brokerConfigs, 0), 0);
        Resource orders = new Resource(ConfigResourceType.TOPIC, TOPIC);

        assertThat(configs.alterIncremental(orders, List.of(new Change("retention.ms", AlterOp.SET, "60000")), false))
                .isEqualTo(Outcome.OK);
        assertThat(catalog.view().resource(TOPIC).orElseThrow().declaration().configs())
                .isEqualTo(Map.of("retention.ms", "60000"));

        assertThat(configs.alterIncremental(orders, List.of(new Change("retention.ms", AlterOp.SET, "soon")), false)
                .error()).isEqualTo(KafkaError.INVALID_CONFIG);
        assertThat(configs.alterIncremental(new Resource(ConfigResourceType.TOPIC, "unknown"),
                List.of(new Change("retention.ms", AlterOp.SET, "1")), false).error())
                .isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(catalog.writes()).containsExactly("update orders");
    }

    // ---------------------------------------------------------------- delete

    @Test
    void deletingRemovesTheDeclarationAndAnswersOnceThisBrokerNoLongerServesIt() {
        Topic topic = materialized(TOPIC, 2);

        CompletableFuture<DeleteResult> deleted = admin.deleteByName(TOPIC, TIMEOUT_MS).toCompletableFuture();
        assertThat(catalog.view().resources()).isEmpty();
        assertThat(deleted).as("still served here until the round").isNotDone();
        round();

        assertThat(deleted.join()).isEqualTo(new DeleteResult(KafkaError.NONE, null, topic));
        assertThat(topics.byName(TOPIC)).isEmpty();
        assertThat(create(TOPIC, 1, Map.of())).as("created again at once").isNotDone();
    }

    @Test
    void deletingByIdOrAnUnknownTopic() {
        Topic topic = materialized(TOPIC, 1);

        assertThat(admin.deleteByName("unknown", TIMEOUT_MS).toCompletableFuture().join().error())
                .isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(admin.deleteById(UUID.randomUUID(), TIMEOUT_MS).toCompletableFuture().join().error())
                .isEqualTo(KafkaError.UNKNOWN_TOPIC_ID);
        CompletableFuture<DeleteResult> deleted = admin.deleteById(topic.id(), TIMEOUT_MS).toCompletableFuture();
        round();
        assertThat(deleted.join().topic()).isEqualTo(topic);
    }

    @Test
    void theOperatorIsTheOneWriterOfTopicFiles() {
        assertThatThrownBy(() -> topics.create(new CreateCommand(TOPIC, 1, -1, Map.of(), Map.of(), false)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> topics.updateConfigs(TOPIC, c -> c, false)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> topics.deleteByName(TOPIC)).isInstanceOf(IllegalStateException.class);
        assertThat(volume.loadAll()).isEmpty();
    }

    // ---------------------------------------------------------------- auto-creation

    @Test
    void metadataDeclaresAnUnknownTopicAndAnswersLeaderNotAvailableUntilItIsServed() {
        MetadataService metadata = new MetadataService(topics, admin, new StandaloneCluster("cluster", 0, "localhost",
                () -> 9092, null), settings, Runnable::run);

        List<TopicMetadata> first = metadata.describeOrCreate(List.of("auto")).toCompletableFuture().join();

        assertThat(first).containsExactly(TopicMetadata.failed("auto", KafkaError.LEADER_NOT_AVAILABLE));
        assertThat(catalog.view().resource("auto").orElseThrow().declaration()).isEqualTo(new Declaration(1, Map.of()));
        UUID id = operate("auto");
        round();
        assertThat(metadata.describeOrCreate(List.of("auto")).toCompletableFuture().join())
                .singleElement().satisfies(t -> {
                    assertThat(t.error()).isEqualTo(KafkaError.NONE);
                    assertThat(t.id()).isEqualTo(id);
                });
    }

    // ---------------------------------------------------------------- the test's hands

    private CompletableFuture<CreateResult> create(String name, int partitions, Map<String, String> configs) {
        return admin.create(new CreateCommand(name, partitions, -1, Map.of(), configs, false), TIMEOUT_MS)
                .toCompletableFuture();
    }

    private CompletableFuture<Outcome> grow(String name, int count) {
        CompletionStage<Outcome> grown = admin.createPartitions(new CreatePartitionsCommand(name, count, null, false),
                TIMEOUT_MS);
        return grown.toCompletableFuture();
    }

    /** A topic declared, materialised and served. */
    private Topic materialized(String name, int partitions) {
        catalog.declare(name, name, new Declaration(partitions, Map.of()));
        operate(name);
        round();
        return topics.byName(name).orElseThrow();
    }

    /** The operator: the declaration's files on the volume (id minted once), then Ready. */
    private UUID operate(String resourceName) {
        Declared declared = catalog.view().resource(resourceName).orElseThrow();
        UUID id = declared.topicId().orElseGet(ids);
        volume.save(new Topic(declared.name(), id, declared.declaration().partitions(),
                declared.declaration().configs()));
        catalog.markReady(resourceName, id);
        return id;
    }

    /** The control round's topic step. */
    private void round() {
        topics.refresh();
    }
}
