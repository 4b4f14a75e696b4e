package io.kaas.domain.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The broker's effective settings under Apache Kafka's names, immutable: what DescribeConfigs
 * reports for the broker, and where topic configs take their defaults from.
 *
 * <p>Built from the settings the broker really runs with (in kaas, its {@code KAAS_*} environment),
 * completed with the broker-level default of every topic config that has one (a topic key's
 * default is the value of its {@link TopicConfigKey#brokerDefault() broker setting}) and every
 * {@linkplain DynamicBrokerConfigKeys dynamic broker config}; {@link #withDynamic} lays the
 * dynamic configs set through the admin APIs over them.
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

    /** One value in a setting's chain of sources, the effective one first. */
    public record Layer(String value, ConfigSource source) {
    }

    /** The settings the broker started with; {@link #entries} shows them under the dynamic ones. */
    private final Map<String, Entry> startup;
    private final Map<String, String> brokerDynamic;
    private final Map<String, String> defaultDynamic;
    private final Map<String, Entry> entries;
    private final Map<String, String> topicDefaults;

    private BrokerConfigs(Map<String, Entry> startup, Map<String, String> brokerDynamic,
                          Map<String, String> defaultDynamic) {
        this.startup = startup;
        this.brokerDynamic = Map.copyOf(brokerDynamic);
        this.defaultDynamic = Map.copyOf(defaultDynamic);
        Map<String, Entry> effective = new TreeMap<>(startup);
        for (String name : union(brokerDynamic.keySet(), defaultDynamic.keySet())) {
            Entry base = startup.get(name);
            Layer top = chain(name).get(0);
            effective.put(name, base == null
                    ? new Entry(name, top.value(), null, ConfigType.UNKNOWN, top.source(), null)
                    : new Entry(name, top.value(), base.defaultValue(), base.type(), top.source(), base.documentation()));
        }
        this.entries = Map.copyOf(effective);
        Map<String, String> defaults = new TreeMap<>();
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            defaults.put(key.name(), key.brokerDefaultKey().map(entries::get).map(Entry::value).orElse(key.defaultValue()));
        }
        this.topicDefaults = Map.copyOf(defaults);
    }

    /**
     * The broker's settings: {@code settings}, plus every dynamic broker config and the broker-level
     * default of every topic config that {@code settings} does not name, at Apache's default value.
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
        for (DynamicBrokerConfigKeys.Key key : DynamicBrokerConfigKeys.all()) {
            entries.putIfAbsent(key.name(), Entry.ofDefault(key.name(), key.defaultValue(), key.type(),
                    "A dynamic broker config of Apache Kafka: kaas validates, stores and reports it, without effect."));
        }
        return new BrokerConfigs(Map.copyOf(entries), Map.of(), Map.of());
    }

    /**
     * These startup settings under dynamic configs: {@code brokerDynamic} set on this broker,
     * {@code defaultDynamic} on the cluster-wide default; the broker's own win.
     */
    public BrokerConfigs withDynamic(Map<String, String> brokerDynamic, Map<String, String> defaultDynamic) {
        return new BrokerConfigs(startup, brokerDynamic, defaultDynamic);
    }

    /** The dynamic configs set on the cluster-wide default. */
    public Map<String, String> dynamicDefaults() {
        return defaultDynamic;
    }

    /** The dynamic configs set on this broker. */
    public Map<String, String> dynamicOfBroker() {
        return brokerDynamic;
    }

    /**
     * Where a setting's value comes from, the effective one first, in Apache's order: this
     * broker's dynamic config, the cluster-wide dynamic default, the startup setting, the default.
     * Empty for a name the broker does not know and nothing set.
     */
    public List<Layer> chain(String name) {
        List<Layer> chain = new ArrayList<>();
        if (brokerDynamic.containsKey(name)) {
            chain.add(new Layer(brokerDynamic.get(name), ConfigSource.DYNAMIC_BROKER_CONFIG));
        }
        if (defaultDynamic.containsKey(name)) {
            chain.add(new Layer(defaultDynamic.get(name), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
        }
        Entry base = startup.get(name);
        if (base != null && base.source() == ConfigSource.STATIC_BROKER_CONFIG) {
            chain.add(new Layer(base.value(), ConfigSource.STATIC_BROKER_CONFIG));
        }
        if (base != null && base.defaultValue() != null) {
            chain.add(new Layer(base.defaultValue(), ConfigSource.DEFAULT_CONFIG));
        }
        return chain;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
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
