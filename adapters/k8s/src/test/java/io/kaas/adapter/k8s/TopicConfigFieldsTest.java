package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** KafkaTopic spec.config fields and Kafka's topic config names, both ways. */
class TopicConfigFieldsTest {

    @Test
    void everyKafkaTopicConfigIsAFieldOfItsJsonType() {
        Map<String, Class<?>> fields = Arrays.stream(KafkaTopicConfig.class.getDeclaredFields())
                .collect(Collectors.toMap(Field::getName, Field::getType));
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            assertThat(fields).as(key.name()).containsEntry(TopicConfigFields.fieldName(key.name()), javaType(key.type()));
        }
        assertThat(fields).as("a field per key, no more").hasSameSizeAs(TopicConfigKeys.all());
    }

    @Test
    void dottedNamesBecomeCamelCase() {
        assertThat(TopicConfigFields.fieldName("retention.ms")).isEqualTo("retentionMs");
        assertThat(TopicConfigFields.fieldName("min.insync.replicas")).isEqualTo("minInsyncReplicas");
        assertThat(TopicConfigFields.fieldName("preallocate")).isEqualTo("preallocate");
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

        assertThat(TopicConfigFields.toOverrides(config)).containsExactly(
                Map.entry("cleanup.policy", "compact,delete"),
                Map.entry("message.timestamp.type", "LogAppendTime"),
                Map.entry("min.cleanable.dirty.ratio", "0.25"),
                Map.entry("preallocate", "false"),
                Map.entry("retention.ms", "604800000"),
                Map.entry("segment.bytes", "268435456"));
    }

    @Test
    void noConfigAndAnEmptyConfigOverrideNothing() {
        assertThat(TopicConfigFields.toOverrides(null)).isEmpty();
        assertThat(TopicConfigFields.toOverrides(new KafkaTopicConfig())).isEmpty();
    }

    @Test
    void overridesBecomeTypedFieldsAndReadBackTheSame() {
        Map<String, String> overrides = Map.of("retention.ms", "604800000", "segment.bytes", "268435456",
                "cleanup.policy", "compact,delete", "min.cleanable.dirty.ratio", "0.25", "preallocate", "false",
                "message.timestamp.type", "LogAppendTime");

        KafkaTopicConfig config = TopicConfigFields.toConfig(overrides);

        assertThat(config.getRetentionMs()).isEqualTo(604_800_000L);
        assertThat(config.getSegmentBytes()).isEqualTo(268_435_456);
        assertThat(config.getPreallocate()).isFalse();
        assertThat(TopicConfigFields.toOverrides(config)).isEqualTo(overrides);
        assertThat(TopicConfigFields.toConfig(Map.of())).as("no overrides, no config").isNull();
    }

    @Test
    void aValueItsFieldCannotHoldOrAnUnknownKeyIsInvalidConfig() {
        assertThatThrownBy(() -> TopicConfigFields.toConfig(Map.of("segment.bytes", "99999999999")))
                .isInstanceOfSatisfying(KafkaException.class, e -> assertThat(e.error()).isEqualTo(KafkaError.INVALID_CONFIG));
        assertThatThrownBy(() -> TopicConfigFields.toConfig(Map.of("retention.hours", "1")))
                .isInstanceOfSatisfying(KafkaException.class, e -> assertThat(e.error()).isEqualTo(KafkaError.INVALID_CONFIG));
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
