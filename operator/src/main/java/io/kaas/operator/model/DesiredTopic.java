package io.kaas.operator.model;

import io.kaas.adapter.k8s.TopicConfigFields;
import io.kaas.adapter.k8s.TopicResourceNames;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.topic.TopicNames;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A KafkaTopic's spec, checked: the topic name, partition count and overrides a broker would accept, and the volumes
 * its new partitions may go to.
 *
 * @param name            the Kafka topic name ({@code spec.topicName}, else {@code metadata.name})
 * @param partitions      at least 1
 * @param configs         the overrides by Kafka name, valid against Apache Kafka 3.7's defaults
 * @param eligibleVolumes the volumes its binding selects: a partition elsewhere is outside the spec
 * @param openVolumes     where new partitions go, round-robin: the eligible ones not cordoned; may be empty
 */
public record DesiredTopic(String name, int partitions, Map<String, String> configs, List<String> eligibleVolumes,
                           List<String> openVolumes) {

    public DesiredTopic {
        configs = Map.copyOf(configs);
        eligibleVolumes = List.copyOf(eligibleVolumes);
        openVolumes = List.copyOf(openVolumes);
    }

    /** The outcome of checking a spec. */
    public sealed interface Check permits Valid, Invalid {
    }

    public record Valid(DesiredTopic topic) implements Check {
    }

    public record Invalid(Refusal refusal) implements Check {
    }

    /**
     * Checks what the API server cannot: a legal Kafka name that is not an internal one, a positive partition count,
     * overrides Kafka accepts together, a binding the pool satisfies.
     */
    public static Check of(KafkaTopic resource, List<PoolVolume> pool) {
        String name = TopicResourceNames.topicName(resource);
        Optional<String> illegal = TopicNames.validate(name);
        if (illegal.isPresent()) {
            return invalid(Refusal.INVALID_TOPIC_NAME, illegal.get());
        }
        if (name.startsWith("__")) {
            // The volume's root also holds __cluster/, kaas's replacement for Kafka's internal topics.
            return invalid(Refusal.INVALID_TOPIC_NAME, "Topic name '" + name + "' starts with '__', which is reserved"
                    + " for internal state");
        }
        KafkaTopicSpec spec = resource.getSpec();
        Integer partitions = spec == null ? null : spec.getPartitions();
        if (partitions == null || partitions < 1) {
            return invalid(Refusal.INVALID_PARTITIONS, "spec.partitions must be at least 1, not " + partitions);
        }
        Map<String, String> configs = TopicConfigFields.toOverrides(spec.getConfig());
        try {
            TopicConfigs.validate(configs, TopicConfigKeys.apacheDefaults());
        } catch (KafkaException e) {
            return invalid(Refusal.INVALID_CONFIG, e.getMessage());
        }
        VolumeBinding.Eligible eligible = VolumeBinding.resolve(spec.getStorage(), pool);
        if (eligible instanceof VolumeBinding.Invalid refused) {
            return new Invalid(refused.refusal());
        }
        List<String> volumes = ((VolumeBinding.Volumes) eligible).names();
        List<String> open = volumes.stream().filter(volume -> pool.stream()
                .noneMatch(member -> member.cordoned() && member.name().equals(volume))).toList();
        return new Valid(new DesiredTopic(name, partitions, configs, volumes, open));
    }

    private static Invalid invalid(String reason, String message) {
        return new Invalid(new Refusal(reason, message));
    }
}
