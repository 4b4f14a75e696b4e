package io.kaas.operator.model;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code spec.config} to the topic's overrides as the broker stores them: each set field under its Kafka name
 * ({@code retentionMs} → {@code retention.ms}), its value in Kafka's text form. Unset fields are not overrides.
 */
public final class TopicConfigMapping {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() {
    };
    /** Kafka's name of each {@link KafkaTopicConfig} field. */
    private static final Map<String, String> KEY_BY_FIELD = new HashMap<>();

    static {
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            KEY_BY_FIELD.put(fieldName(key.name()), key.name());
        }
    }

    private TopicConfigMapping() {
    }

    /** The CR field of a Kafka topic config: dotted words in camelCase, {@code min.insync.replicas} → {@code minInsyncReplicas}. */
    public static String fieldName(String kafkaKey) {
        String[] words = kafkaKey.split("\\.");
        StringBuilder field = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            field.append(Character.toUpperCase(words[i].charAt(0))).append(words[i], 1, words[i].length());
        }
        return field.toString();
    }

    /** The overrides {@code config} sets, by Kafka name, sorted; empty for no config. */
    public static Map<String, String> toOverrides(KafkaTopicConfig config) {
        Map<String, String> overrides = new TreeMap<>();
        if (config == null) {
            return overrides;
        }
        // The type is @JsonInclude(NON_NULL): only the fields that are set come out.
        MAPPER.convertValue(config, FIELDS).forEach((field, value) -> {
            String key = KEY_BY_FIELD.get(field);
            if (key == null) {
                throw new IllegalStateException("KafkaTopicConfig." + field + " names no Kafka topic config");
            }
            overrides.put(key, String.valueOf(value));
        });
        return overrides;
    }
}
