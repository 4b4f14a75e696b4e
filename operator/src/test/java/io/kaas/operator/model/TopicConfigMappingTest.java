package io.kaas.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TopicConfigMappingTest {

    @Test
    void everyKafkaTopicConfigIsAFieldOfItsJsonType() {
        Map<String, Class<?>> fields = Arrays.stream(KafkaTopicConfig.class.getDeclaredFields())
                .collect(Collectors.toMap(Field::getName, Field::getType));
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            assertThat(fields).as(key.name()).containsEntry(TopicConfigMapping.fieldName(key.name()), javaType(key.type()));
        }
        assertThat(fields).as("a field per key, no more").hasSameSizeAs(TopicConfigKeys.all());
    }

    @Test
    void dottedNamesBecomeCamelCase() {
        assertThat(TopicConfigMapping.fieldName("retention.ms")).isEqualTo("retentionMs");
        assertThat(TopicConfigMapping.fieldName("min.insync.replicas")).isEqualTo("minInsyncReplicas");
        assertThat(TopicConfigMapping.fieldName("preallocate")).isEqualTo("preallocate");
    }

    @Test
    void setFieldsBecomeOverridesInKafkasTextForm() {
        KafkaTopicConfig config = new KafkaTopicConfig();
        config.setRetentionMs(604_800_000L);
        config.setSegmentBytes(268_435_456);
        config.setCleanupPolicy("compact,delete");
        config.setMinCleanableDirtyRatio(0.25);
        config.setPreallocate(false);
        config.setMessageTimestampType("LogAppendTime");

        assertThat(TopicConfigMapping.toOverrides(config)).containsExactly(
                Map.entry("cleanup.policy", "compact,delete"),
                Map.entry("message.timestamp.type", "LogAppendTime"),
                Map.entry("min.cleanable.dirty.ratio", "0.25"),
                Map.entry("preallocate", "false"),
                Map.entry("retention.ms", "604800000"),
                Map.entry("segment.bytes", "268435456"));
    }

    @Test
    void noConfigAndAnEmptyConfigOverrideNothing() {
        assertThat(TopicConfigMapping.toOverrides(null)).isEmpty();
        assertThat(TopicConfigMapping.toOverrides(new KafkaTopicConfig())).isEmpty();
    }

    private static Class<?> javaType(ConfigType type) {
        return switch (type) {
            case INT -> Integer.class;
            case LONG -> Long.class;
            case DOUBLE -> Double.class;
            case BOOLEAN -> Boolean.class;
            default -> String.class;
        };
    }
}
