package io.kaas.adapter.wire.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.server.config.ServerTopicConfigSynonyms;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The domain's topic-config table against Apache Kafka 3.7.2's own ({@code LogConfig}, from the
 * kafka-storage jar): the same keys, types, defaults and broker synonyms, and for a spread of
 * values per key the same verdict and the same message when a value is refused.
 */
class TopicConfigKeysMatchApacheTest {
    private static final Map<String, ConfigDef.ConfigKey> APACHE = LogConfig.configKeys();
    private static final List<String> SAMPLES = List.of("", " ", "abc", "-3", "-2", "-1", "0", "1", "3", "13", "14",
            " 42 ", "0.5", "1.5", "-0.1", "true", "TRUE", "yes", "delete", "compact", "compact,delete", "Delete",
            "delete,compactx", "*", "0:1", "0:1,2:3", "0:x", "*,0:1", "CreateTime", "LogAppendTime", "createtime", "gzip",
            "GZIP", "producer", "3.7", "3.7.2", "3.0-IV1", "2.8-IV1", "0.10.0-IV1", "0.10.2.1", "9.9", "3.7-IV9",
            "9223372036854775807", "9223372036854775808", "2147483647", "2147483648");

    @Test
    void theSameKeys() {
        assertThat(TopicConfigKeys.sortedNames()).containsExactlyInAnyOrderElementsOf(APACHE.keySet());
    }

    @Test
    void theSameTypesDefaultsAndBrokerSynonyms() {
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            ConfigDef.ConfigKey apache = APACHE.get(key.name());
            assertThat(key.type().name()).as("%s type", key.name()).isEqualTo(apache.type.name());
            assertThat(key.defaultValue()).as("%s default", key.name())
                    .isEqualTo(ConfigDef.convertToString(apache.defaultValue, apache.type));
            assertThat(key.brokerDefault()).as("%s broker synonym", key.name())
                    .isEqualTo(ServerTopicConfigSynonyms.TOPIC_CONFIG_SYNONYMS.get(key.name()));
        }
    }

    static Stream<Arguments> keysAndValues() {
        return TopicConfigKeys.all().stream().flatMap(k -> SAMPLES.stream().map(v -> Arguments.of(k.name(), v)));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("keysAndValues")
    void theSameVerdictOnEveryValue(String key, String value) {
        assertThat(kaasVerdict(key, value)).isEqualTo(apacheVerdict(key, value));
    }

    @Test
    void theSameVerdictOnConflictingCompactionLags() {
        Map<String, String> conflict = Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "9");
        assertThat(kaasVerdict(conflict)).isEqualTo(apacheVerdict(conflict)).isPresent();
    }

    @Test
    void theSameVerdictOnAnUnknownKey() {
        Map<String, String> unknown = Map.of("retention.mss", "1");
        assertThat(kaasVerdict(unknown)).isEqualTo(apacheVerdict(unknown)).isPresent();
    }

    private static Optional<String> kaasVerdict(String key, String value) {
        return kaasVerdict(Map.of(key, value));
    }

    private static Optional<String> kaasVerdict(Map<String, String> overrides) {
        try {
            TopicConfigs.validate(overrides, TopicConfigKeys.apacheDefaults());
            return Optional.empty();
        } catch (KafkaException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static Optional<String> apacheVerdict(String key, String value) {
        return apacheVerdict(Map.of(key, value));
    }

    /** What Apache's controller checks (ControllerConfigurationValidator), on a broker without tiered storage. */
    private static Optional<String> apacheVerdict(Map<String, String> overrides) {
        Properties props = new Properties();
        props.putAll(overrides);
        try {
            LogConfig.validate(props, TopicConfigKeys.apacheDefaults(), false);
            return Optional.empty();
        } catch (ConfigException | InvalidConfigurationException e) {
            return Optional.of(e.getMessage());
        }
    }
}
