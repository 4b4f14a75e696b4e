package io.kaas.application.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.MetadataUseCase.PartitionMetadata;
import io.kaas.application.port.in.MetadataUseCase.TopicMetadata;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class MetadataServiceTest {
    private static final int BROKER = 4;
    private static final int DEFAULT_PARTITIONS = 2;

    private final BrokerSettings autoCreating = settings(true);
    private final TopicService topics = new TopicService(new InMemoryTopicStore(), new MemoryLogEngine(tp -> { }),
            autoCreating, BrokerConfigs.of(List.of()), new SequentialTopicIds());
    private final StandaloneCluster cluster = new StandaloneCluster("cluster", BROKER, "localhost", () -> 9092, null);

    private static BrokerSettings settings(boolean autoCreate) {
        return new BrokerSettings(BROKER, DEFAULT_PARTITIONS, autoCreate);
    }

    private final QueuedExecutor io = new QueuedExecutor();

    private MetadataService service(boolean brokerAllowsAutoCreate) {
        return new MetadataService(topics, cluster, settings(brokerAllowsAutoCreate), io);
    }

    /** What a client allowing auto-creation is answered, once the I/O executor has run the creates. */
    private List<TopicMetadata> describeOrCreate(MetadataService service, List<String> names) {
        CompletableFuture<List<TopicMetadata>> answer = service.describeOrCreate(names).toCompletableFuture();
        io.runAll();
        return answer.join();
    }

    private Topic create(String name, int partitions) {
        return topics.create(new CreateCommand(name, partitions, 1, Map.of(), Map.of(), false)).topic();
    }

    @Test
    void allTopicsSortedByNameWithThisBrokerLeadingEveryPartition() {
        Topic zeta = create("zeta", 1);
        Topic alpha = create("alpha", 2);
        create("mid", 1);

        List<TopicMetadata> all = service(true).describe(null);

        assertThat(all).extracting(TopicMetadata::name).containsExactly("alpha", "mid", "zeta");
        assertThat(all.get(0)).isEqualTo(new TopicMetadata("alpha", alpha.id(), KafkaError.NONE, List.of(
                new PartitionMetadata(0, BROKER, 0, List.of(BROKER)),
                new PartitionMetadata(1, BROKER, 0, List.of(BROKER)))));
        assertThat(all.get(2).id()).isEqualTo(zeta.id());
        assertThat(topics.all()).as("listing creates nothing").hasSize(3);
    }

    @Test
    void describesRequestedTopicsInRequestOrder() {
        create("a", 1);
        create("b", 1);

        assertThat(service(false).describe(List.of("b", "a"))).extracting(TopicMetadata::name)
                .containsExactly("b", "a");
    }

    @Test
    void createsUnknownTopicsWhenBothTheRequestAndTheBrokerAllowIt() {
        CompletableFuture<List<TopicMetadata>> answer = service(true).describeOrCreate(List.of("fresh")).toCompletableFuture();
        assertThat(answer).as("creating writes files: it runs on the I/O executor, not the caller's thread").isNotDone();
        assertThat(topics.byName("fresh")).isEmpty();
        io.runAll();
        List<TopicMetadata> result = answer.join();

        assertThat(result).singleElement().satisfies(m -> {
            assertThat(m.error()).isEqualTo(KafkaError.NONE);
            assertThat(m.partitions()).hasSize(DEFAULT_PARTITIONS);
            assertThat(m.id()).isEqualTo(topics.byName("fresh").orElseThrow().id());
        });
    }

    @Test
    void anUnknownTopicIsReportedWhenEitherSideForbidsCreation() {
        assertThat(service(true).describe(List.of("x")))
                .containsExactly(TopicMetadata.failed("x", KafkaError.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(describeOrCreate(service(false), List.of("x")))
                .containsExactly(TopicMetadata.failed("x", KafkaError.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(topics.byName("x")).isEmpty();
    }

    @Test
    void anIllegalNameIsAnInvalidTopicWhetherOrNotCreationIsAllowed() {
        String illegal = "no spaces";
        assertThat(describeOrCreate(service(true), List.of(illegal)))
                .containsExactly(TopicMetadata.failed(illegal, KafkaError.INVALID_TOPIC_EXCEPTION));
        assertThat(service(false).describe(List.of(illegal)))
                .containsExactly(TopicMetadata.failed(illegal, KafkaError.INVALID_TOPIC_EXCEPTION));
        assertThat(topics.all()).isEmpty();
    }

    @Test
    void aNameThatCannotBeCreatedIsReportedWithTheReasonAndTheRestAnswered() {
        create("a.b", 1);

        List<TopicMetadata> result = describeOrCreate(service(true), List.of("a_b", "a.b", "new"));

        assertThat(result).extracting(TopicMetadata::name).containsExactly("a_b", "a.b", "new");
        assertThat(result).extracting(TopicMetadata::error)
                .containsExactly(KafkaError.INVALID_TOPIC_EXCEPTION, KafkaError.NONE, KafkaError.NONE);
    }
}
