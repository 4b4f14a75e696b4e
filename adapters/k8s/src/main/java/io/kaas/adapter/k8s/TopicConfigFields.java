package io.kaas.adapter.k8s;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A KafkaTopic's {@code spec.config} and a topic's overrides as Kafka names them, both ways: each set field under its
 * Kafka name ({@code retentionMs} is {@code retention.ms}), its value in Kafka's text form; unset fields are not
 * overrides. The operator reads a resource's overrides this way, brokers write the admin APIs' overrides this way.
 */
public final class TopicConfigFields {
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

    private TopicConfigFields() {
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

    /**
     * The {@code spec.config} setting {@code overrides}, each value parsed as its key's type; null for none (the field
     * stays unset). A key Kafka does not know, or a value its type cannot hold, is INVALID_CONFIG: callers validate
     * with Kafka's rules first, so this only catches what slipped past them.
     */
    public static KafkaTopicConfig toConfig(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return null;
        }
        Map<String, Object> fields = new HashMap<>();
        overrides.forEach((key, value) -> {
            TopicConfigKey known = TopicConfigKeys.get(key).orElseThrow(() -> new KafkaException(KafkaError.INVALID_CONFIG,
                    "Unknown topic config name: " + key));
            fields.put(fieldName(key), typed(known, value));
        });
        return MAPPER.convertValue(fields, KafkaTopicConfig.class);
    }

    private static Object typed(TopicConfigKey key, String value) {
        String text = value.trim();
        try {
            return switch (key.type()) {
                case INT -> Integer.valueOf(text);
                case LONG -> Long.valueOf(text);
                case DOUBLE -> Double.valueOf(text);
                case BOOLEAN -> Boolean.valueOf(text.toLowerCase(Locale.ROOT));
                default -> value;
            };
        } catch (NumberFormatException e) {
            throw new KafkaException(KafkaError.INVALID_CONFIG, "Invalid value " + value + " for configuration "
                    + key.name());
        }
    }
}
