package io.kaas.application.port.in;

import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.Map;

/**
 * Topic and broker configuration: DescribeConfigs, IncrementalAlterConfigs and the legacy
 * AlterConfigs. Topic configs are stored with the topic and take effect without a restart; broker
 * configs are the broker's startup settings and read-only.
 */
public interface ConfigUseCase {

    /** What a config belongs to: a topic by name, or a broker by id ("" for the cluster-wide defaults). */
    record Resource(ConfigResourceType type, String name) {
    }

    /**
     * @param keys                 the keys to report, or null (or empty) for all
     * @param includeSynonyms      report where each value comes from and what it shadows
     * @param includeDocumentation report each key's documentation
     */
    record DescribeCommand(Resource resource, List<String> keys, boolean includeSynonyms,
                           boolean includeDocumentation) {
    }

    /** One value in a config's chain of sources, the effective one first. */
    record Synonym(String name, String value, ConfigSource source) {
    }

    /** One reported config; {@code documentation} is null unless asked for. */
    record Entry(String name, String value, boolean readOnly, ConfigSource source, boolean sensitive,
                 List<Synonym> synonyms, ConfigType type, String documentation) {

        /** True if nothing sets the value: DescribeConfigs v0's {@code is_default}. */
        public boolean isDefault() {
            return source == ConfigSource.DEFAULT_CONFIG;
        }
    }

    /** A described resource: its configs, or an error (with Apache's message, possibly null). */
    record Described(KafkaError error, String message, List<Entry> entries) {
        public static Described failed(KafkaError error, String message) {
            return new Described(error, message, List.of());
        }
    }

    Described describe(DescribeCommand command);

    /** Applies {@code changes} to one resource's configs, all or nothing; with validateOnly, only checks them. */
    Outcome alterIncremental(Resource resource, List<TopicConfigs.Change> changes, boolean validateOnly);

    /**
     * Replaces one resource's configs with {@code configs} (legacy AlterConfigs: keys not named are
     * reset to their defaults); with validateOnly, only checks them.
     */
    Outcome alterAll(Resource resource, List<Setting> configs, boolean validateOnly);

    /** One key and value of a legacy AlterConfigs request, as sent (a key may come twice, a value may be null). */
    record Setting(String name, String value) {
    }

    /**
     * Every config a topic with these overrides has, as CreateTopics v5+ reports them (sorted, with
     * sources, no synonyms or documentation).
     */
    List<Entry> topicConfigs(Map<String, String> overrides);
}
