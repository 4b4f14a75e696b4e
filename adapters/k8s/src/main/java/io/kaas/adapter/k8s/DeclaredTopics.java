package io.kaas.adapter.k8s;

import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;
import io.kaas.adapter.k8s.crd.TopicReadyReasons;
import io.kaas.application.port.out.TopicCatalog.Declaration;
import io.kaas.application.port.out.TopicCatalog.Declared;
import io.kaas.application.port.out.TopicCatalog.Refusal;
import io.kaas.application.port.out.TopicCatalog.State;
import io.kaas.application.port.out.TopicCatalog.View;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * KafkaTopic resources as the topic catalog's view: each resource's topic, declaration, minted id and how far the
 * operator got with its current generation (its Ready condition, when that describes this generation), and for each
 * topic the resource that owns it ({@link TopicClaims}).
 */
final class DeclaredTopics {
    private static final String READY = "Ready";

    private DeclaredTopics() {
    }

    /** The view of a full listing. */
    static View of(Collection<KafkaTopic> resources) {
        Map<String, Declared> byResource = new HashMap<>();
        for (KafkaTopic resource : resources) {
            byResource.put(resource.getMetadata().getName(), declared(resource));
        }
        Map<String, Declared> owners = new HashMap<>();
        for (String topic : TopicClaims.claimed(resources)) {
            TopicClaims.owner(topic, resources)
                    .ifPresent(owner -> owners.put(topic, byResource.get(owner.getMetadata().getName())));
        }
        return new View(true, owners, byResource);
    }

    /** What one resource declares, and how far the operator got with it. */
    static Declared declared(KafkaTopic resource) {
        KafkaTopicSpec spec = resource.getSpec();
        Integer partitions = spec == null ? null : spec.getPartitions();
        Declaration declaration = new Declaration(partitions == null ? 0 : partitions,
                TopicConfigFields.toOverrides(spec == null ? null : spec.getConfig()));
        KafkaTopicStatus status = resource.getStatus();
        Optional<Condition> ready = Optional.ofNullable(status).map(KafkaTopicStatus::getConditions)
                .flatMap(conditions -> conditions.stream().filter(c -> READY.equals(c.getType())).findFirst())
                .filter(c -> Objects.equals(c.getObservedGeneration(), resource.getMetadata().getGeneration()));
        State state = ready.map(DeclaredTopics::state).orElse(State.PENDING);
        return new Declared(TopicResourceNames.topicName(resource), resource.getMetadata().getName(), declaration,
                Optional.ofNullable(status).map(KafkaTopicStatus::getTopicId).flatMap(TopicClaims::parse), state,
                state == State.REFUSED ? ready.map(c -> refusal(c.getReason())) : Optional.empty(),
                ready.map(Condition::getMessage).orElse(""));
    }

    private static State state(Condition ready) {
        if ("True".equals(ready.getStatus())) {
            return State.READY;
        }
        if ("False".equals(ready.getStatus()) && !TopicReadyReasons.MATERIALIZE_FAILED.equals(ready.getReason())) {
            return State.REFUSED;
        }
        return State.PENDING; // Unknown, or a failure the operator retries
    }

    private static Refusal refusal(String reason) {
        if (reason == null) {
            return Refusal.OTHER;
        }
        return switch (reason) {
            case TopicReadyReasons.INVALID_TOPIC_NAME -> Refusal.INVALID_TOPIC_NAME;
            case TopicReadyReasons.INVALID_PARTITIONS -> Refusal.INVALID_PARTITIONS;
            case TopicReadyReasons.INVALID_CONFIG -> Refusal.INVALID_CONFIG;
            case TopicReadyReasons.TOPIC_NAME_CONFLICT -> Refusal.TOPIC_NAME_CONFLICT;
            case TopicReadyReasons.PARTITION_DECREASE_REFUSED -> Refusal.PARTITION_DECREASE;
            default -> Refusal.OTHER;
        };
    }
}
