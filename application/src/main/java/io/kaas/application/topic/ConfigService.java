package io.kaas.application.topic;

import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.LogLevels;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.DynamicBrokerConfigKeys;
import io.kaas.domain.config.DynamicBrokerConfigs;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * DescribeConfigs, IncrementalAlterConfigs and AlterConfigs with Apache Kafka 3.7's semantics.
 *
 * <p>Topics report every topic config key: an override with source DYNAMIC_TOPIC_CONFIG, otherwise
 * the broker's default (STATIC_BROKER_CONFIG when the broker's environment sets it, else
 * DEFAULT_CONFIG), with the chain of synonyms Apache reports. Changes go to a {@link TopicConfigWriter}:
 * {@link TopicService} validates, stores and applies them standalone; in a cluster they become the
 * KafkaTopic's config, which the operator materialises.
 *
 * <p>Brokers report their settings ({@link BrokerConfigs}): the startup ones, read-only, and
 * Apache's dynamic broker configs, which {@link BrokerConfigService} lets this broker (its id) or
 * the cluster-wide default (the empty name) change, with Apache's sources and synonyms.
 */
public final class ConfigService implements ConfigUseCase {
    private final TopicService topics;
    private final TopicConfigWriter writer;
    private final BrokerConfigService broker;
    private final int brokerId;
    /** Absent when the process logs through a backend whose levels cannot be changed: BROKER_LOGGER is refused. */
    private final Optional<BrokerLoggerConfigs> loggers;

    /** A broker that writes its own topics' configs. */
    public ConfigService(TopicService topics, BrokerConfigService broker, int brokerId) {
        this(topics, topics, broker, brokerId);
    }

    /** @param writer where topic config changes go */
    public ConfigService(TopicService topics, TopicConfigWriter writer, BrokerConfigService broker, int brokerId) {
        this(topics, writer, broker, brokerId, Optional.empty());
    }

    /**
     * @param writer    where topic config changes go
     * @param logLevels the log levels BROKER_LOGGER reports and changes; absent, the resource is refused
     */
    public ConfigService(TopicService topics, TopicConfigWriter writer, BrokerConfigService broker, int brokerId,
                         Optional<LogLevels> logLevels) {
        this.topics = topics;
        this.writer = writer;
        this.broker = broker;
        this.brokerId = brokerId;
        this.loggers = logLevels.map(levels -> new BrokerLoggerConfigs(levels, brokerId));
    }

    // ------------------------------------------------------------------------------------------ describe

    @Override
    public Described describe(DescribeCommand command) {
        Resource resource = command.resource();
        return switch (resource.type()) {
            case TOPIC -> describeTopic(command);
            case BROKER -> describeBroker(command);
            case BROKER_LOGGER -> loggers.map(l -> l.describe(command))
                    .orElseGet(() -> Described.failed(KafkaError.INVALID_REQUEST, unsupported(resource.type())));
            default -> Described.failed(KafkaError.INVALID_REQUEST, unsupported(resource.type()));
        };
    }

    private Described describeTopic(DescribeCommand command) {
        String name = command.resource().name();
        Optional<String> illegal = TopicNames.validate(name);
        if (illegal.isPresent()) {
            return Described.failed(KafkaError.INVALID_TOPIC_EXCEPTION, illegal.get());
        }
        Optional<TopicConfig> config = topics.config(name);
        if (config.isEmpty()) {
            return Described.failed(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, ""); // Apache sends an empty message here
        }
        List<Entry> entries = new ArrayList<>();
        for (String key : TopicConfigKeys.sortedNames()) {
            if (wanted(command.keys(), key)) {
                entries.add(topicEntry(config.get(), key, command.includeSynonyms(), command.includeDocumentation()));
            }
        }
        return new Described(KafkaError.NONE, null, entries);
    }

    @Override
    public List<Entry> topicConfigs(Map<String, String> overrides) {
        TopicConfig config = topics.resolve(overrides);
        return TopicConfigKeys.sortedNames().stream().map(key -> topicEntry(config, key, false, false)).toList();
    }

    private Entry topicEntry(TopicConfig config, String name, boolean includeSynonyms, boolean includeDocumentation) {
        TopicConfigKey key = TopicConfigKeys.require(name);
        String value = config.value(name);
        List<Synonym> chain = new ArrayList<>();
        if (config.isOverridden(name)) {
            chain.add(new Synonym(name, value, ConfigSource.DYNAMIC_TOPIC_CONFIG));
        }
        BrokerConfigs configs = broker.current();
        configs.topicDefaultSetting(name).ifPresent(setting -> chain.addAll(synonyms(configs, setting.name())));
        ConfigSource source = chain.isEmpty() ? ConfigSource.DEFAULT_CONFIG : chain.get(0).source();
        return new Entry(name, value, false, source, false, includeSynonyms ? List.copyOf(chain) : List.of(), key.type(),
                includeDocumentation ? key.documentation() : null);
    }

    private Described describeBroker(DescribeCommand command) {
        String name = command.resource().name();
        BrokerConfigs configs = broker.current();
        if (name == null || name.isEmpty()) {
            List<Entry> entries = new ArrayList<>();
            configs.dynamicDefaults().forEach((key, value) -> {
                if (wanted(command.keys(), key)) {
                    BrokerConfigs.Entry known = configs.get(key).orElseThrow();
                    BrokerConfigs.Entry setting = new BrokerConfigs.Entry(key, value, known.defaultValue(), known.type(),
                            ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, known.documentation());
                    entries.add(brokerEntry(setting, List.of(new Synonym(key, value, setting.source())), command));
                }
            });
            entries.sort((a, b) -> a.name().compareTo(b.name()));
            return new Described(KafkaError.NONE, null, entries);
        }
        Optional<Described> wrongBroker = checkBrokerId(name, "Broker id must be an integer, but it is: " + name,
                "Unexpected broker id, expected " + brokerId + " or empty string, but received " + name);
        if (wrongBroker.isPresent()) {
            return wrongBroker.get();
        }
        List<Entry> entries = new ArrayList<>();
        for (BrokerConfigs.Entry setting : configs.all()) {
            if (wanted(command.keys(), setting.name())) {
                entries.add(brokerEntry(setting, synonyms(configs, setting.name()), command));
            }
        }
        return new Described(KafkaError.NONE, null, entries);
    }

    /** A broker setting as reported: dynamic ones writable, passwords hidden, as Apache reports them. */
    private static Entry brokerEntry(BrokerConfigs.Entry setting, List<Synonym> synonyms,
                                     DescribeCommand command) {
        boolean sensitive = setting.type() == ConfigType.PASSWORD;
        // A name Apache does not know is reported only once set, as a dynamic config of unknown type.
        boolean dynamic = DynamicBrokerConfigKeys.get(setting.name()).isPresent() || setting.type() == ConfigType.UNKNOWN;
        List<Synonym> reported = !command.includeSynonyms() ? List.of() : sensitive
                ? synonyms.stream().map(s -> new Synonym(s.name(), null, s.source())).toList() : synonyms;
        return new Entry(setting.name(), sensitive ? null : setting.value(), !dynamic, setting.source(), sensitive,
                reported, setting.type(), command.includeDocumentation() ? setting.documentation() : null);
    }

    /** Where a broker setting's value comes from, the effective one first. */
    private static List<Synonym> synonyms(BrokerConfigs configs, String name) {
        return configs.chain(name).stream().map(layer -> new Synonym(name, layer.value(), layer.source())).toList();
    }

    private static boolean wanted(List<String> keys, String name) {
        return keys == null || keys.isEmpty() || keys.contains(name);
    }

    // ------------------------------------------------------------------------------------------ alter

    @Override
    public Outcome alterIncremental(Resource resource, List<TopicConfigs.Change> changes, boolean validateOnly) {
        Optional<Outcome> malformed = malformed(changes.stream().map(TopicConfigs.Change::key).toList(),
                changes.stream().filter(c -> c.op() != AlterOp.DELETE && c.value() == null)
                        .map(TopicConfigs.Change::key).toList());
        if (malformed.isPresent()) {
            return malformed.get();
        }
        return switch (resource.type()) {
            case TOPIC -> alterTopic(resource.name(), current -> TopicConfigs.apply(current, changes), validateOnly);
            case BROKER -> alterBroker(resource.name(), current -> DynamicBrokerConfigs.apply(current, changes,
                    key -> broker.current().get(key).map(BrokerConfigs.Entry::value).orElse(null)), validateOnly);
            case BROKER_LOGGER -> loggers.map(l -> l.alter(resource.name(), changes, validateOnly))
                    .orElseGet(() -> new Outcome(KafkaError.INVALID_REQUEST, unsupported(resource.type())));
            default -> new Outcome(KafkaError.INVALID_REQUEST, unsupported(resource.type()));
        };
    }

    @Override
    public Outcome alterAll(Resource resource, List<Setting> settings, boolean validateOnly) {
        Optional<Outcome> malformed = malformed(settings.stream().map(Setting::name).toList(),
                settings.stream().filter(s -> s.value() == null).map(Setting::name).toList());
        if (malformed.isPresent()) {
            return malformed.get();
        }
        Map<String, String> configs = new LinkedHashMap<>();
        settings.forEach(s -> configs.put(s.name(), s.value()));
        return switch (resource.type()) {
            case TOPIC -> alterTopic(resource.name(), current -> configs, validateOnly);
            case BROKER -> alterBroker(resource.name(), current -> configs, validateOnly);
            // Legacy AlterConfigs never had log levels: Apache calls every other type unknown.
            default -> new Outcome(KafkaError.INVALID_REQUEST, "Unknown resource type " + resource.type().id());
        };
    }

    /** Apache's request-shape checks on one resource: each key at most once, values only with DELETE omitted. */
    private static Optional<Outcome> malformed(List<String> keys, List<String> nullValues) {
        if (new HashSet<>(keys).size() != keys.size()) {
            return Optional.of(new Outcome(KafkaError.INVALID_REQUEST, "Error due to duplicate config keys"));
        }
        if (!nullValues.isEmpty()) {
            return Optional.of(new Outcome(KafkaError.INVALID_REQUEST, "Null value not supported for : "
                    + String.join(", ", nullValues)));
        }
        return Optional.empty();
    }

    private Outcome alterTopic(String name, UnaryOperator<Map<String, String>> change,
                               boolean validateOnly) {
        if (name == null || name.isEmpty()) {
            return new Outcome(KafkaError.INVALID_REQUEST, "Default topic resources are not allowed.");
        }
        Optional<String> illegal = TopicNames.validate(name);
        if (illegal.isPresent()) {
            return new Outcome(KafkaError.INVALID_TOPIC_EXCEPTION, illegal.get());
        }
        Outcome outcome = writer.updateConfigs(name, change, validateOnly);
        return outcome.succeeded() ? Outcome.OK : new Outcome(outcome.error(), outcome.message());
    }

    /** Changes this broker's dynamic configs, or the cluster-wide defaults when {@code name} is empty. */
    private Outcome alterBroker(String name, UnaryOperator<Map<String, String>> change, boolean validateOnly) {
        String resource = name == null ? "" : name;
        if (!resource.isEmpty()) {
            Optional<Described> wrongBroker = checkBrokerId(resource, "Node id must be an integer, but it is: "
                    + resource, "Unexpected broker id, expected " + brokerId + ", but received " + resource);
            if (wrongBroker.isPresent()) {
                return new Outcome(wrongBroker.get().error(), wrongBroker.get().message());
            }
        }
        return broker.alter(resource, change, validateOnly);
    }

    private Optional<Described> checkBrokerId(String name, String notANumber, String notThisBroker) {
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return Optional.of(Described.failed(KafkaError.INVALID_REQUEST, notANumber));
        }
        if (id != brokerId) {
            return Optional.of(Described.failed(KafkaError.INVALID_REQUEST, notThisBroker));
        }
        return Optional.empty();
    }

    private static String unsupported(ConfigResourceType type) {
        return switch (type) {
            case BROKER_LOGGER -> "this broker's logging backend has no levels to change (BROKER_LOGGER resources)";
            case CLIENT_METRICS -> "Client metrics subscriptions (KIP-714) are not supported";
            default -> "Unsupported resource type: " + type;
        };
    }
}
