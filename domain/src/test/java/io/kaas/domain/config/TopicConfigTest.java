package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.config.TopicConfig.TimestampType;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A topic's effective configuration: overrides over the broker's defaults, the applied keys typed. */
class TopicConfigTest {

    @Test
    void withoutOverridesEveryValueIsTheDefault() {
        Map<String, String> defaults = new HashMap<>(TopicConfigKeys.apacheDefaults());
        defaults.put("flush.messages", "1");
        defaults.put("max.message.bytes", "2048");
        TopicConfig config = TopicConfig.resolve(defaults, Map.of());

        assertThat(config.flushMessages()).isEqualTo(1);
        assertThat(config.maxMessageBytes()).isEqualTo(2048);
        assertThat(config.segmentBytes()).isEqualTo(1 << 30);
        assertThat(config.retentionMs()).isEqualTo(604_800_000L);
        assertThat(config.retentionBytes()).isEqualTo(-1);
        assertThat(config.flushMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(config.fileDeleteDelayMs()).isEqualTo(60_000);
        assertThat(config.deleteRetention()).isTrue();
        assertThat(config.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(config.isOverridden("retention.ms")).isFalse();
        assertThat(config.value("max.message.bytes")).isEqualTo("2048");
    }

    @Test
    void overridesWinAndAreReportedInCanonicalText() {
        TopicConfig config = TopicConfig.resolve(TopicConfigKeys.apacheDefaults(), Map.of(
                "retention.ms", " 1000 ", "segment.bytes", "4096", "cleanup.policy", " compact , delete",
                "message.timestamp.type", "LogAppendTime"));

        assertThat(config.retentionMs()).isEqualTo(1000);
        assertThat(config.segmentBytes()).isEqualTo(4096);
        assertThat(config.deleteRetention()).isTrue();
        assertThat(config.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(config.value("retention.ms")).isEqualTo("1000");
        assertThat(config.value("cleanup.policy")).isEqualTo("compact,delete");
        assertThat(config.isOverridden("retention.ms")).isTrue();
    }

    @Test
    void aCompactOnlyTopicHasNoDeleteRetention() {
        assertThat(TopicConfig.resolve(TopicConfigKeys.apacheDefaults(), Map.of("cleanup.policy", "compact"))
                .deleteRetention()).isFalse();
    }

    @Test
    void theDeprecatedDifferenceStandsInForLimitsLeftAtTheirDefaults() {
        TopicConfig onlyDifference = TopicConfig.resolve(TopicConfigKeys.apacheDefaults(),
                Map.of("message.timestamp.difference.max.ms", "5000"));
        assertThat(onlyDifference.timestampBeforeMaxMs()).isEqualTo(5000);
        assertThat(onlyDifference.timestampAfterMaxMs()).isEqualTo(5000);

        TopicConfig both = TopicConfig.resolve(TopicConfigKeys.apacheDefaults(),
                Map.of("message.timestamp.difference.max.ms", "5000", "message.timestamp.before.max.ms", "100"));
        assertThat(both.timestampBeforeMaxMs()).isEqualTo(100);
        assertThat(both.timestampAfterMaxMs()).isEqualTo(5000);
    }

    @Test
    void anUnparseableStoredOverrideCountsAsAbsent() {
        TopicConfig config = TopicConfig.resolve(TopicConfigKeys.apacheDefaults(), Map.of("retention.ms", "garbage"));
        assertThat(config.retentionMs()).isEqualTo(604_800_000L);
        assertThat(config.isOverridden("retention.ms")).isFalse();
        assertThat(config.value("retention.ms")).isEqualTo("604800000");
    }
}
