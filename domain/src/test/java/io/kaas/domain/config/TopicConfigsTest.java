package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.config.TopicConfigs.Change;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Validating a topic's overrides and applying IncrementalAlterConfigs operations to them. */
class TopicConfigsTest {
    private static final Map<String, String> DEFAULTS = TopicConfigKeys.apacheDefaults();

    @Test
    void knownKeysWithValidValuesPass() {
        assertThatCode(() -> TopicConfigs.validate(Map.of("retention.ms", "60000", "cleanup.policy", "compact,delete",
                "message.timestamp.type", "LogAppendTime"), DEFAULTS)).doesNotThrowAnyException();
        assertThatCode(() -> TopicConfigs.validate(Map.of(), DEFAULTS)).doesNotThrowAnyException();
    }

    @Test
    void anUnknownKeyIsAnInvalidConfig() {
        assertInvalid(Map.of("retention.mss", "1"), "Unknown topic config name: retention.mss");
    }

    @Test
    void aNullValueIsAnInvalidConfig() {
        Map<String, String> overrides = new HashMap<>();
        overrides.put("retention.ms", null);
        overrides.put("segment.ms", null);
        assertInvalid(overrides, "Null value not supported for topic configs: retention.ms,segment.ms");
    }

    @Test
    void aBadValueIsAnInvalidConfig() {
        assertInvalid(Map.of("retention.ms", "soon"), "Invalid value soon for configuration retention.ms: Not a number of type LONG");
    }

    @Test
    void compactionLagsAreCheckedTogetherWithTheDefaults() {
        assertInvalid(Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "5"),
                "conflict topic config setting min.compaction.lag.ms (10) > max.compaction.lag.ms (5)");
        Map<String, String> defaults = new HashMap<>(DEFAULTS);
        defaults.put("max.compaction.lag.ms", "100");
        assertThatThrownBy(() -> TopicConfigs.validate(Map.of("min.compaction.lag.ms", "101"), defaults))
                .hasMessage("conflict topic config setting min.compaction.lag.ms (101) > max.compaction.lag.ms (100)");
    }

    @Test
    void remoteStorageIsRefusedAsByABrokerWithoutTieredStorage() {
        assertInvalid(Map.of("remote.storage.enable", "true"),
                "Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage.");
        assertThatCode(() -> TopicConfigs.validate(Map.of("remote.storage.enable", "false"), DEFAULTS))
                .doesNotThrowAnyException();
    }

    @Test
    void setReplacesAndDeleteRemoves() {
        Map<String, String> next = TopicConfigs.apply(Map.of("retention.ms", "1", "segment.ms", "2"), List.of(
                new Change("retention.ms", AlterOp.SET, "10"),
                new Change("segment.ms", AlterOp.DELETE, null),
                new Change("flush.ms", AlterOp.DELETE, null)));
        assertThat(next).containsExactly(Map.entry("retention.ms", "10"));
    }

    @Test
    void appendStartsFromTheDefaultAndAddsOnlyNewItems() {
        Map<String, String> next = TopicConfigs.apply(Map.of(), List.of(
                new Change("cleanup.policy", AlterOp.APPEND, "compact"),
                new Change("leader.replication.throttled.replicas", AlterOp.APPEND, "0:1,1:1")));
        assertThat(next).containsEntry("cleanup.policy", "delete,compact")
                .containsEntry("leader.replication.throttled.replicas", "0:1,1:1");
        assertThat(TopicConfigs.apply(next, List.of(new Change("cleanup.policy", AlterOp.APPEND, "delete"))))
                .containsEntry("cleanup.policy", "delete,compact");
    }

    @Test
    void subtractRemovesItemsEvenDownToAnEmptyList() {
        Map<String, String> next = TopicConfigs.apply(Map.of("cleanup.policy", "compact,delete"), List.of(
                new Change("cleanup.policy", AlterOp.SUBTRACT, "compact")));
        assertThat(next).containsEntry("cleanup.policy", "delete");
        assertThat(TopicConfigs.apply(Map.of(), List.of(new Change("cleanup.policy", AlterOp.SUBTRACT, "delete"))))
                .containsEntry("cleanup.policy", "");
    }

    @Test
    void listOperationsOnAnythingButAListAreRefused() {
        assertThatThrownBy(() -> TopicConfigs.apply(Map.of(), List.of(new Change("retention.ms", AlterOp.APPEND, "1"))))
                .isInstanceOfSatisfying(KafkaException.class, e -> assertThat(e.error()).isEqualTo(KafkaError.INVALID_CONFIG))
                .hasMessage("Can't APPEND to key retention.ms because its type is not LIST.");
        assertThatThrownBy(() -> TopicConfigs.apply(Map.of(), List.of(new Change("no.such.key", AlterOp.SUBTRACT, "1"))))
                .hasMessage("Can't SUBTRACT to key no.such.key because its type is not LIST.");
    }

    private static void assertInvalid(Map<String, String> overrides, String message) {
        assertThatThrownBy(() -> TopicConfigs.validate(overrides, DEFAULTS))
                .isInstanceOfSatisfying(KafkaException.class, e -> assertThat(e.error()).isEqualTo(KafkaError.INVALID_CONFIG))
                .hasMessage(message);
    }
}
