package io.kaas.domain.config;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker's effective settings under Apache Kafka's names, read-only: what DescribeConfigs
 * reports for the broker, and where topic configs take their defaults from.
 *
 * <p>Built from the settings the broker really runs with (in kaas, its {@code KAAS_*} environment),
 * completed with the broker-level default of every topic config that has one: a topic key's
 * default is the value of its {@link TopicConfigKey#brokerDefault() broker setting}.
 */
public final class BrokerConfigs {

    /**
     * One broker setting.
     *
     * @param value        the effective value, in canonical text
     * @param defaultValue the value when nothing sets it
     * @param source       {@link ConfigSource#STATIC_BROKER_CONFIG} when set at startup, else {@link ConfigSource#DEFAULT_CONFIG}
     */
    public record Entry(String name, String value, String defaultValue, ConfigType type, ConfigSource source,
                        String documentation) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(source, "source");
        }

        /** A setting at its default. */
        public static Entry ofDefault(String name, String value, ConfigType type, String documentation) {
            return new Entry(name, value, value, type, ConfigSource.DEFAULT_CONFIG, documentation);
        }

        /** A setting whose value came from {@code explicitlySet} configuration when true, else its default. */
        public static Entry of(String name, String value, String defaultValue, boolean explicitlySet, ConfigType type,
                               String documentation) {
            return new Entry(name, value, defaultValue, type,
                    explicitlySet ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG, documentation);
        }
    }

    private final Map<String, Entry> entries;
    private final Map<String, String> topicDefaults;

    private BrokerConfigs(Map<String, Entry> entries) {
        this.entries = entries;
        Map<String, String> defaults = new TreeMap<>();
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            defaults.put(key.name(), key.brokerDefaultKey().map(entries::get).map(Entry::value).orElse(key.defaultValue()));
        }
        this.topicDefaults = Map.copyOf(defaults);
    }

    /**
     * The broker's settings: {@code settings}, plus the broker-level default of every topic config
     * that {@code settings} does not name, at Apache's default value.
     */
    public static BrokerConfigs of(Collection<Entry> settings) {
        Map<String, Entry> entries = new TreeMap<>();
        for (Entry e : settings) {
            entries.put(e.name(), e);
        }
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            key.brokerDefaultKey().filter(name -> !entries.containsKey(name)).ifPresent(name -> entries.put(name,
                    Entry.ofDefault(name, key.defaultValue(), key.type(),
                            "The broker-wide default of the topic config " + key.name() + ". " + key.documentation())));
        }
        return new BrokerConfigs(Map.copyOf(entries));
    }

    public Optional<Entry> get(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    /** Every setting, sorted by name. */
    public List<Entry> all() {
        return entries.values().stream().sorted((a, b) -> a.name().compareTo(b.name())).toList();
    }

    /** The default of a topic config on this broker: its broker setting's value, else Apache's default. */
    public String topicDefault(String topicKey) {
        String value = topicDefaults.get(topicKey);
        if (value == null) {
            throw new IllegalArgumentException("not a topic config: " + topicKey);
        }
        return value;
    }

    /** The defaults of every topic config on this broker, by key. */
    public Map<String, String> topicDefaults() {
        return topicDefaults;
    }

    /** The broker setting a topic config takes its default from, if it has one. */
    public Optional<Entry> topicDefaultSetting(String topicKey) {
        return TopicConfigKeys.get(topicKey).flatMap(TopicConfigKey::brokerDefaultKey).map(entries::get);
    }
}
