package io.kaas.application.topic;

import io.kaas.application.port.in.Outcome;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Where AlterConfigs and IncrementalAlterConfigs change a topic's overrides: the broker's own store standalone
 * ({@link TopicService}), the topic catalog in a cluster ({@link ClusterTopicAdmin}).
 */
public interface TopicConfigWriter {
    /**
     * Replaces a topic's overrides with {@code change} applied to them, after validating the result (before checking
     * that the topic exists, as Apache does); with {@code validateOnly}, only checks.
     *
     * @param change may throw the domain's {@code KafkaException} to refuse the change
     */
    Outcome updateConfigs(String name, UnaryOperator<Map<String, String>> change, boolean validateOnly);
}
