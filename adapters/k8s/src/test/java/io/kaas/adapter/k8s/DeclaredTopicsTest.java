package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;
import io.kaas.adapter.k8s.crd.TopicReadyReasons;
import io.kaas.application.port.out.TopicCatalog.Declaration;
import io.kaas.application.port.out.TopicCatalog.Declared;
import io.kaas.application.port.out.TopicCatalog.Refusal;
import io.kaas.application.port.out.TopicCatalog.State;
import io.kaas.application.port.out.TopicCatalog.View;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a KafkaTopic declares, and how the Ready condition of its current generation reads. */
class DeclaredTopicsTest {
    private static final UUID ID = UUID.fromString("6f1c2a7e-0a55-4b8e-9d0c-3f1e2d4c5b6a");

    @Test
    void aResourceDeclaresItsTopicPartitionsAndOverrides() {
        KafkaTopic resource = topic("orders", null, 3, 1L);
        KafkaTopicConfig config = new KafkaTopicConfig();
        config.setRetentionMs(60_000L);
        resource.getSpec().setConfig(config);

        Declared declared = DeclaredTopics.declared(resource);

        assertThat(declared).isEqualTo(new Declared("orders", "orders", new Declaration(3, Map.of("retention.ms",
                "60000")), Optional.empty(), State.PENDING, Optional.empty(), ""));
    }

    @Test
    void readyForItsGenerationIsReadyWithTheMintedId() {
        KafkaTopic resource = topic("orders", null, 3, 2L);
        status(resource, "True", TopicReadyReasons.MATERIALIZED, 2L);

        Declared declared = DeclaredTopics.declared(resource);

        assertThat(declared.state()).isEqualTo(State.READY);
        assertThat(declared.topicId()).hasValue(ID);
    }

    @Test
    void aConditionOfAnEarlierGenerationSaysNothingAboutThisOne() {
        KafkaTopic resource = topic("orders", null, 4, 3L);
        status(resource, "True", TopicReadyReasons.MATERIALIZED, 2L);

        assertThat(DeclaredTopics.declared(resource).state()).isEqualTo(State.PENDING);
    }

    @Test
    void refusalsAreRefusedWithTheirReasonAndRetriedFailuresArePending() {
        KafkaTopic refused = topic("orders", null, 1, 1L);
        status(refused, "False", TopicReadyReasons.INVALID_CONFIG, 1L);
        KafkaTopic failing = topic("payments", null, 1, 1L);
        status(failing, "False", TopicReadyReasons.MATERIALIZE_FAILED, 1L);
        KafkaTopic bound = topic("audit", null, 1, 1L);
        status(bound, "False", TopicReadyReasons.INVALID_VOLUME_BINDING, 1L);

        assertThat(DeclaredTopics.declared(refused)).satisfies(d -> {
            assertThat(d.state()).isEqualTo(State.REFUSED);
            assertThat(d.refusal()).hasValue(Refusal.INVALID_CONFIG);
            assertThat(d.message()).isEqualTo("the operator says why");
        });
        assertThat(DeclaredTopics.declared(failing).state()).isEqualTo(State.PENDING);
        assertThat(DeclaredTopics.declared(bound).refusal()).hasValue(Refusal.OTHER);
    }

    @Test
    void whenTwoResourcesDeclareOneTopicTheFirstCreatedOwnsIt() {
        KafkaTopic first = topic("streams-first", "Streams_Topic", 1, 1L);
        first.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
        KafkaTopic second = topic("streams-second", "Streams_Topic", 2, 1L);
        second.getMetadata().setCreationTimestamp("2026-01-02T00:00:00Z");

        View view = DeclaredTopics.of(List.of(second, first));

        assertThat(view.synced()).isTrue();
        assertThat(view.get("Streams_Topic")).map(Declared::resourceName).hasValue("streams-first");
        assertThat(view.resources()).containsOnlyKeys("streams-first", "streams-second");
    }

    private static KafkaTopic topic(String name, String topicName, int partitions, long generation) {
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withGeneration(generation).build());
        KafkaTopicSpec spec = new KafkaTopicSpec();
        spec.setPartitions(partitions);
        spec.setTopicName(topicName);
        resource.setSpec(spec);
        return resource;
    }

    private static void status(KafkaTopic resource, String ready, String reason, long observedGeneration) {
        Condition condition = new Condition();
        condition.setType("Ready");
        condition.setStatus(ready);
        condition.setReason(reason);
        condition.setMessage("the operator says why");
        condition.setObservedGeneration(observedGeneration);
        KafkaTopicStatus status = new KafkaTopicStatus();
        status.setTopicId(ID.toString());
        status.setConditions(List.of(condition));
        resource.setStatus(status);
    }
}
