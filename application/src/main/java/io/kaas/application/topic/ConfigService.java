package io.kaas.application.topic;

import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.config.TopicConfigKey;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 * <p>Brokers report their real startup settings ({@link BrokerConfigs}), all read-only: kaas has
 * no dynamic broker configuration, so setting one is refused as Apache refuses a key that cannot be
 * updated dynamically. The cluster-wide default resource (empty name) has no dynamic defaults.
 */
public final class ConfigService implements ConfigUseCase {
    private final TopicService topics;
    private final TopicConfigWriter writer;
    private final BrokerConfigs broker;
    private final int brokerId;

    /** A broker that writes its own topics' configs. */
    public ConfigService(TopicService topics, BrokerConfigs broker, int brokerId) {
        this(topics, topics, broker, brokerId);
    }

    /** @param writer where topic config changes go */
    public ConfigService(TopicService topics, TopicConfigWriter writer, BrokerConfigs broker, int brokerId) {
        this.topics = topics;
        this.writer = writer;
        this.broker = broker;
        this.brokerId = brokerId;
    }

    // ------------------------------------------------------------------------------------------ describe

    @Override
    public Described describe(DescribeCommand command) {
        Resource resource = command.resource();
        return switch (resource.type()) {
            case TOPIC -> describeTopic(command);
            case BROKER -> describeBroker(command);
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
        broker.topicDefaultSetting(name).ifPresent(setting -> chain.addAll(brokerChain(setting)));
        ConfigSource source = chain.isEmpty() ? ConfigSource.DEFAULT_CONFIG : chain.get(0).source();
        return new Entry(name, value, false, source, false, includeSynonyms ? List.copyOf(chain) : List.of(), key.type(),
                includeDocumentation ? key.documentation() : null);
    }

    private Described describeBroker(DescribeCommand command) {
        String name = command.resource().name();
        if (name == null || name.isEmpty()) {
            return new Described(KafkaError.NONE, null, List.of()); // no dynamic cluster-wide defaults exist in kaas
        }
        Optional<Described> wrongBroker = checkBrokerId(name, "Broker id must be an integer, but it is: " + name,
                "Unexpected broker id, expected " + brokerId + " or empty string, but received " + name);
        if (wrongBroker.isPresent()) {
            return wrongBroker.get();
        }
        List<Entry> entries = new ArrayList<>();
        for (BrokerConfigs.Entry setting : broker.all()) {
            if (wanted(command.keys(), setting.name())) {
                entries.add(new Entry(setting.name(), setting.value(), true, setting.source(), false,
                        command.includeSynonyms() ? brokerChain(setting) : List.of(), setting.type(),
                        command.includeDocumentation() ? setting.documentation() : null));
            }
        }
        return new Described(KafkaError.NONE, null, entries);
    }

    /** A broker setting's value, then the default it shadows when the environment set it. */
    private static List<Synonym> brokerChain(BrokerConfigs.Entry setting) {
        List<Synonym> chain = new ArrayList<>();
        chain.add(new Synonym(setting.name(), setting.value(), setting.source()));
        if (setting.source() == ConfigSource.STATIC_BROKER_CONFIG && setting.defaultValue() != null) {
            chain.add(new Synonym(setting.name(), setting.defaultValue(), ConfigSource.DEFAULT_CONFIG));
        }
        return chain;
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
            case BROKER -> alterBroker(resource.name(), changes.stream().filter(c -> c.op() != AlterOp.DELETE)
                    .map(TopicConfigs.Change::key).toList());
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
            case BROKER -> alterBroker(resource.name(), configs.keySet());
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

    /**
     * Broker settings come from the environment at startup and cannot change while it runs: every
     * key set is refused the way Apache refuses a key it cannot update dynamically. Deleting is a
     * no-op: there is never a dynamic value to delete.
     */
    private Outcome alterBroker(String name, Collection<String> setKeys) {
        if (name != null && !name.isEmpty()) {
            Optional<Described> wrongBroker = checkBrokerId(name, "Node id must be an integer, but it is: " + name,
                    "Unexpected broker id, expected " + brokerId + ", but received " + name);
            if (wrongBroker.isPresent()) {
                return new Outcome(wrongBroker.get().error(), wrongBroker.get().message());
            }
        }
        if (setKeys.isEmpty()) {
            return Outcome.OK;
        }
        Set<String> sorted = new TreeSet<>(setKeys);
        return new Outcome(KafkaError.INVALID_REQUEST, "Cannot update these configs dynamically: Set("
                + String.join(", ", sorted) + ")");
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
            case BROKER_LOGGER -> "kaas does not manage broker log levels (BROKER_LOGGER resources)";
            case CLIENT_METRICS -> "Client metrics subscriptions (KIP-714) are not supported";
            default -> "Unsupported resource type: " + type;
        };
    }
}
