package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The broker's settings and the topic defaults they supply. */
class BrokerConfigsTest {
    private final BrokerConfigs broker = BrokerConfigs.of(List.of(
            BrokerConfigs.Entry.of("log.retention.ms", "1000", "604800000", true, ConfigType.LONG, "retention"),
            BrokerConfigs.Entry.ofDefault("broker.id", "0", ConfigType.INT, "id")));

    @Test
    void aTopicDefaultIsItsBrokerSettingsValue() {
        assertThat(broker.topicDefault("retention.ms")).isEqualTo("1000");
        assertThat(broker.topicDefaultSetting("retention.ms")).hasValueSatisfying(e -> {
            assertThat(e.name()).isEqualTo("log.retention.ms");
            assertThat(e.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
            assertThat(e.defaultValue()).isEqualTo("604800000");
        });
    }

    @Test
    void everyTopicKeyWithABrokerSynonymGetsOneAtApachesDefault() {
        assertThat(broker.get("log.cleanup.policy")).hasValueSatisfying(e -> {
            assertThat(e.value()).isEqualTo("delete");
            assertThat(e.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
            assertThat(e.type()).isEqualTo(ConfigType.LIST);
            assertThat(e.documentation()).contains("cleanup.policy");
        });
        assertThat(broker.topicDefault("segment.bytes")).isEqualTo("1073741824");
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            key.brokerDefaultKey().ifPresent(name -> assertThat(broker.get(name)).as(name).isPresent());
        }
    }

    @Test
    void keysWithoutABrokerSynonymUseApachesDefault() {
        assertThat(broker.topicDefault("remote.storage.enable")).isEqualTo("false");
        assertThat(broker.topicDefaultSetting("remote.storage.enable")).isEmpty();
        assertThat(broker.topicDefaults()).hasSize(TopicConfigKeys.all().size());
    }

    @Test
    void settingsAreListedByName() {
        assertThat(broker.all()).extracting(BrokerConfigs.Entry::name).isSorted().contains("broker.id", "log.retention.ms");
    }
}
