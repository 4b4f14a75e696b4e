package io.kaas.application.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.TestBroker;
import io.kaas.application.port.in.ConfigUseCase.DescribeCommand;
import io.kaas.application.port.in.ConfigUseCase.Described;
import io.kaas.application.port.in.ConfigUseCase.Entry;
import io.kaas.application.port.in.ConfigUseCase.Resource;
import io.kaas.application.port.in.ConfigUseCase.Setting;
import io.kaas.application.port.in.ConfigUseCase.Synonym;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.config.TopicConfigs.Change;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DescribeConfigs, IncrementalAlterConfigs and AlterConfigs with Apache's semantics. */
class ConfigServiceTest {
    private static final Resource ORDERS = new Resource(ConfigResourceType.TOPIC, "orders");
    private static final Resource THIS_BROKER = new Resource(ConfigResourceType.BROKER,
            Integer.toString(TestBroker.BROKER_ID));

    private final TestBroker broker = new TestBroker();

    // ---------------------------------------------------------------- describe topics

    @Test
    void aTopicReportsEveryKeyWithItsSourceAndSynonyms() {
        broker.create("orders", 1, Map.of("retention.ms", "60000", "cleanup.policy", "compact, delete"));

        Described described = describe(ORDERS, null, true, true);

        assertThat(described.error()).isEqualTo(KafkaError.NONE);
        assertThat(described.entries()).extracting(Entry::name).containsExactlyElementsOf(TopicConfigKeys.sortedNames());
        Entry retention = entry(described, "retention.ms");
        assertThat(retention.value()).isEqualTo("60000");
        assertThat(retention.source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(retention.readOnly()).isFalse();
        assertThat(retention.type()).isEqualTo(ConfigType.LONG);
        assertThat(retention.documentation()).contains("retention sweep");
        assertThat(retention.synonyms()).containsExactly(
                new Synonym("retention.ms", "60000", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                new Synonym("log.retention.ms", TestBroker.RETENTION_MS, ConfigSource.STATIC_BROKER_CONFIG),
                new Synonym("log.retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG));
        assertThat(entry(described, "cleanup.policy").value()).as("canonical text").isEqualTo("compact,delete");
    }

    @Test
    void aDefaultTakesItsSourceFromTheBrokerSetting() {
        broker.create("orders", 1);

        Described described = describe(ORDERS, null, true, false);

        Entry retention = entry(described, "retention.ms");
        assertThat(retention.value()).isEqualTo(TestBroker.RETENTION_MS);
        assertThat(retention.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        Entry segment = entry(described, "segment.bytes");
        assertThat(segment.value()).isEqualTo("1073741824");
        assertThat(segment.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(segment.isDefault()).isTrue();
        assertThat(segment.synonyms()).containsExactly(new Synonym("log.segment.bytes", "1073741824", ConfigSource.DEFAULT_CONFIG));
        Entry remote = entry(described, "remote.storage.enable");
        assertThat(remote.source()).as("no broker synonym").isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(remote.synonyms()).isEmpty();
        assertThat(entry(described, "flush.messages").value()).isEqualTo("1");
        assertThat(entry(described, "max.message.bytes").value()).isEqualTo("10000");
        assertThat(retention.documentation()).as("not asked for").isNull();
    }

    @Test
    void withoutSynonymsTheSourceIsStillReported() {
        broker.create("orders", 1, Map.of("segment.ms", "1000"));

        Entry entry = entry(describe(ORDERS, null, false, false), "segment.ms");

        assertThat(entry.synonyms()).isEmpty();
        assertThat(entry.source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
    }

    @Test
    void theKeysFilterNarrowsTheAnswerAndIgnoresUnknownKeys() {
        broker.create("orders", 1);

        assertThat(describe(ORDERS, List.of("retention.ms", "segment.ms", "no.such.key"), false, false).entries())
                .extracting(Entry::name).containsExactly("retention.ms", "segment.ms");
        assertThat(describe(ORDERS, List.of(), false, false).entries()).hasSize(TopicConfigKeys.all().size());
    }

    @Test
    void unknownAndIllegalTopicsAreErrors() {
        assertThat(describe(ORDERS, null, false, false).error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(describe(new Resource(ConfigResourceType.TOPIC, "bad/name"), null, false, false).error())
                .isEqualTo(KafkaError.INVALID_TOPIC_EXCEPTION);
    }

    // ---------------------------------------------------------------- describe brokers

    @Test
    void thisBrokerReportsItsSettingsStaticOnesReadOnly() {
        Described described = describe(THIS_BROKER, null, true, true);

        assertThat(described.error()).isEqualTo(KafkaError.NONE);
        assertThat(described.entries()).extracting(Entry::name).isSorted()
                .contains("broker.id", "log.retention.ms", "message.max.bytes", "log.cleanup.policy",
                        "sasl.kerberos.min.time.before.relogin");
        assertThat(entry(described, "broker.id").readOnly()).isTrue();
        Entry retention = entry(described, "log.retention.ms");
        assertThat(retention.readOnly()).as("dynamic in Apache").isFalse();
        assertThat(retention.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(retention.synonyms()).containsExactly(
                new Synonym("log.retention.ms", TestBroker.RETENTION_MS, ConfigSource.STATIC_BROKER_CONFIG),
                new Synonym("log.retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG));
        assertThat(retention.documentation()).isEqualTo("retention");
        Entry password = entry(described, "ssl.keystore.password");
        assertThat(password.sensitive()).isTrue();
        assertThat(password.value()).isNull();
    }

    @Test
    void theClusterDefaultResourceHasNoDynamicDefaultsAndOtherBrokersAreRefused() {
        assertThat(describe(new Resource(ConfigResourceType.BROKER, ""), null, true, true))
                .isEqualTo(new Described(KafkaError.NONE, null, List.of()));
        assertThat(describe(new Resource(ConfigResourceType.BROKER, "99"), null, false, false)).isEqualTo(
                Described.failed(KafkaError.INVALID_REQUEST, "Unexpected broker id, expected 3 or empty string, but received 99"));
        assertThat(describe(new Resource(ConfigResourceType.BROKER, "x"), null, false, false).message())
                .isEqualTo("Broker id must be an integer, but it is: x");
        assertThat(describe(new Resource(ConfigResourceType.BROKER_LOGGER, "3"), null, false, false).error())
                .isEqualTo(KafkaError.INVALID_REQUEST);
    }

    // ---------------------------------------------------------------- incremental alter

    @Test
    void setDeleteAppendAndSubtractChangeTheStoredOverrides() {
        broker.create("orders", 1, Map.of("retention.ms", "1000", "segment.ms", "2000"));

        Outcome altered = broker.configs.alterIncremental(ORDERS, List.of(
                new Change("retention.ms", AlterOp.SET, "5000"),
                new Change("segment.ms", AlterOp.DELETE, null),
                new Change("cleanup.policy", AlterOp.APPEND, "compact"),
                new Change("leader.replication.throttled.replicas", AlterOp.APPEND, "0:3,1:3")), false);
        assertThat(altered).isEqualTo(Outcome.OK);
        assertThat(stored().configs()).containsOnly(Map.entry("retention.ms", "5000"),
                Map.entry("cleanup.policy", "delete,compact"), Map.entry("leader.replication.throttled.replicas", "0:3,1:3"));

        broker.configs.alterIncremental(ORDERS, List.of(new Change("leader.replication.throttled.replicas", AlterOp.SUBTRACT,
                "0:3")), false);
        assertThat(stored().configs()).containsEntry("leader.replication.throttled.replicas", "1:3");
        assertThat(entry(describe(ORDERS, null, false, false), "cleanup.policy").value()).isEqualTo("delete,compact");
    }

    @Test
    void oneBadOperationFailsTheWholeResource() {
        broker.create("orders", 1, Map.of("retention.ms", "1000"));

        Outcome altered = broker.configs.alterIncremental(ORDERS, List.of(
                new Change("retention.ms", AlterOp.SET, "2000"),
                new Change("segment.bytes", AlterOp.SET, "1")), false);

        assertThat(altered).isEqualTo(new Outcome(KafkaError.INVALID_CONFIG,
                "Invalid value 1 for configuration segment.bytes: Value must be at least 14"));
        assertThat(stored().configs()).containsOnly(Map.entry("retention.ms", "1000"));
    }

    @Test
    void malformedRequestsAreInvalidRequests() {
        broker.create("orders", 1);

        assertThat(broker.configs.alterIncremental(ORDERS, List.of(new Change("retention.ms", AlterOp.SET, "1"),
                new Change("retention.ms", AlterOp.SET, "2")), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Error due to duplicate config keys"));
        assertThat(broker.configs.alterIncremental(ORDERS, List.of(new Change("retention.ms", AlterOp.SET, null)), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Null value not supported for : retention.ms"));
        assertThat(broker.configs.alterIncremental(new Resource(ConfigResourceType.TOPIC, ""),
                List.of(new Change("retention.ms", AlterOp.SET, "1")), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Default topic resources are not allowed."));
        assertThat(broker.configs.alterIncremental(ORDERS, List.of(new Change("retention.ms", AlterOp.APPEND, "1")), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_CONFIG, "Can't APPEND to key retention.ms because its type is not LIST."));
    }

    @Test
    void validateOnlyChangesNothing() {
        broker.create("orders", 1);

        assertThat(broker.configs.alterIncremental(ORDERS, List.of(new Change("retention.ms", AlterOp.SET, "1")), true))
                .isEqualTo(Outcome.OK);
        assertThat(stored().configs()).isEmpty();
    }

    @Test
    void staticBrokerSettingsAreRefusedAndOtherBrokersToo() {
        assertThat(broker.configs.alterIncremental(THIS_BROKER, List.of(
                new Change("num.partitions", AlterOp.SET, "3"), new Change("broker.id", AlterOp.SET, "1")), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST,
                        "Cannot update these configs dynamically: Set(broker.id, num.partitions)"));
        assertThat(broker.configs.alterIncremental(new Resource(ConfigResourceType.BROKER, ""), List.of(
                new Change("num.partitions", AlterOp.SET, "3")), false).error()).isEqualTo(KafkaError.INVALID_REQUEST);
        assertThat(broker.configs.alterIncremental(THIS_BROKER, List.of(new Change("num.partitions", AlterOp.DELETE, null)),
                false)).as("nothing dynamic to delete").isEqualTo(Outcome.OK);
        assertThat(broker.configs.alterIncremental(new Resource(ConfigResourceType.BROKER, "4"), List.of(), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Unexpected broker id, expected 3, but received 4"));
    }

    @Test
    void aDynamicBrokerConfigShadowsTheClusterDefaultWhichShadowsTheStartupSetting() {
        Resource clusterDefault = new Resource(ConfigResourceType.BROKER, "");
        assertThat(broker.configs.alterIncremental(clusterDefault,
                List.of(new Change("log.retention.ms", AlterOp.SET, "2222222")), false)).isEqualTo(Outcome.OK);
        assertThat(broker.configs.alterIncremental(THIS_BROKER,
                List.of(new Change("log.retention.ms", AlterOp.SET, "7654321")), false)).isEqualTo(Outcome.OK);

        Entry retention = entry(describe(THIS_BROKER, List.of("log.retention.ms"), true, false), "log.retention.ms");
        assertThat(retention.value()).isEqualTo("7654321");
        assertThat(retention.source()).isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
        assertThat(retention.synonyms()).containsExactly(
                new Synonym("log.retention.ms", "7654321", ConfigSource.DYNAMIC_BROKER_CONFIG),
                new Synonym("log.retention.ms", "2222222", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                new Synonym("log.retention.ms", TestBroker.RETENTION_MS, ConfigSource.STATIC_BROKER_CONFIG),
                new Synonym("log.retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG));
        assertThat(describe(clusterDefault, null, true, false).entries()).containsExactly(new Entry("log.retention.ms",
                "2222222", false, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, false,
                List.of(new Synonym("log.retention.ms", "2222222", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)),
                ConfigType.LONG, null));

        broker.create("orders", 1);
        assertThat(entry(describe(ORDERS, null, false, false), "retention.ms").source())
                .isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
        assertThat(broker.topics.config("orders").orElseThrow().value("retention.ms")).isEqualTo("7654321");

        assertThat(broker.configs.alterIncremental(THIS_BROKER,
                List.of(new Change("log.retention.ms", AlterOp.DELETE, null)), false)).isEqualTo(Outcome.OK);
        assertThat(broker.topics.config("orders").orElseThrow().value("retention.ms"))
                .as("an existing topic follows its default").isEqualTo("2222222");
        assertThat(broker.dynamicConfigs.load()).isEqualTo(Map.of("", Map.of("log.retention.ms", "2222222")));
    }

    @Test
    void dynamicBrokerConfigsAreCheckedAsApacheChecksThem() {
        assertThat(alterThisBroker("sasl.kerberos.min.time.before.relogin", "abc")).isEqualTo(new Outcome(
                KafkaError.INVALID_REQUEST, "Invalid value abc for configuration sasl.kerberos.min.time.before.relogin:"
                + " Not a number of type LONG"));
        assertThat(alterThisBroker("log.segment.bytes", "5").message())
                .isEqualTo("Invalid value 5 for configuration log.segment.bytes: Value must be at least 14");
        assertThat(alterThisBroker("log.cleaner.min.cleanable.ratio", "2").message()).isEqualTo(
                "Invalid value 2.0 for configuration log.cleaner.min.cleanable.ratio: Value must be no more than 1");
        assertThat(alterThisBroker("ssl.keystore.type", "PKCS12").message()).isEqualTo("These security configs can be"
                + " dynamically updated only per-listener using the listener prefix: HashSet(ssl.keystore.type)");
        assertThat(alterThisBroker("num.network.threads", "100").message()).isEqualTo("Invalid value"
                + " org.apache.kafka.common.config.ConfigException: Dynamic thread count update validation failed for"
                + " num.network.threads=100, value should not be greater than double the current value 3 for"
                + " configuration Invalid dynamic configuration");
        assertThat(alterThisBroker("max.connections.per.ip.overrides", "bad").message()).isEqualTo(
                "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 3");
        assertThat(broker.configs.alterIncremental(new Resource(ConfigResourceType.BROKER, ""), List.of(
                new Change("sasl.kerberos.min.time.before.relogin", AlterOp.SET, "80000")), false)).isEqualTo(
                new Outcome(KafkaError.INVALID_REQUEST, "Cannot update these configs at default cluster level, broker"
                        + " id must be specified: Set(sasl.kerberos.min.time.before.relogin)"));
        assertThat(broker.dynamicConfigs.load()).isEmpty();

        assertThat(broker.configs.alterIncremental(THIS_BROKER, List.of(
                new Change("log.retention.ms", AlterOp.SUBTRACT, "5")), false)).isEqualTo(new Outcome(
                KafkaError.INVALID_CONFIG, "Config value subtract is not allowed for config key: log.retention.ms"));
        assertThat(alterThisBroker("listener.name.external.ssl.keystore.type", "PKCS12")).isEqualTo(Outcome.OK);
        assertThat(alterThisBroker("some.plugin.setting", "x")).as("Apache stores unknown names").isEqualTo(Outcome.OK);
    }

    @Test
    void connectionLimitsAreCheckedWithApachesMessages() {
        Resource clusterDefault = new Resource(ConfigResourceType.BROKER, "");
        String invalid = "Invalid value org.apache.kafka.common.config.ConfigException: Invalid %s 0 for configuration"
                + " Invalid dynamic configuration";
        assertThat(broker.configs.alterIncremental(clusterDefault, List.of(
                new Change("max.connections", AlterOp.SET, "0")), false)).isEqualTo(new Outcome(
                KafkaError.INVALID_REQUEST, invalid.formatted("max.connections")));
        assertThat(alterThisBroker("listener.name.plaintext.max.connection.creation.rate", "0").message())
                .isEqualTo(invalid.formatted("max.connection.creation.rate"));
        assertThat(alterThisBroker("listener.name.nosuch.max.connections", "0"))
                .as("no listener of that name: Apache lets it through").isEqualTo(Outcome.OK);
        assertThat(alterThisBroker("max.connections.per.ip", "0").message()).isEqualTo("requirement failed:"
                + " max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.");
        assertThat(alterThisBroker("max.connections.per.ip.overrides", "host!:3,ok-host:2").message())
                .isEqualTo("max.connections.per.ip.overrides contains invalid addresses : host!");
        assertThat(alterThisBroker("max.connections.per.ip.overrides", "127.0.0.1:4")).isEqualTo(Outcome.OK);
        assertThat(alterThisBroker("max.connections.per.ip", "0")).as("with overrides").isEqualTo(Outcome.OK);
        assertThat(alterThisBroker("max.connections", "-1").message())
                .isEqualTo("Invalid value -1 for configuration max.connections: Value must be at least 0");
    }

    @Test
    void validateOnlyStoresNothing() {
        assertThat(broker.configs.alterIncremental(THIS_BROKER, List.of(
                new Change("sasl.kerberos.min.time.before.relogin", AlterOp.SET, "70000")), true)).isEqualTo(Outcome.OK);

        assertThat(broker.dynamicConfigs.load()).isEmpty();
        assertThat(entry(describe(THIS_BROKER, null, false, false), "sasl.kerberos.min.time.before.relogin").source())
                .isEqualTo(ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void legacyAlterReplacesTheBrokersDynamicConfigs() {
        alterThisBroker("message.max.bytes", "2000000");

        assertThat(broker.configs.alterAll(THIS_BROKER, List.of(new Setting("log.cleaner.threads", "2")), false))
                .isEqualTo(Outcome.OK);

        assertThat(broker.dynamicConfigs.load()).isEqualTo(Map.of("3", Map.of("log.cleaner.threads", "2")));
        assertThat(broker.configs.alterAll(THIS_BROKER, List.of(new Setting("log.cleaner.threads", "x")), false)
                .message()).isEqualTo("Invalid value x for configuration log.cleaner.threads: Not a number of type INT");
    }

    @Test
    void aClusterBrokerRefusesEveryChangeButDescribes() {
        ConfigService cluster = new ConfigService(broker.topics,
                BrokerConfigService.fixed(broker.brokerConfigs, TestBroker.BROKER_ID), TestBroker.BROKER_ID);

        assertThat(cluster.alterIncremental(THIS_BROKER, List.of(new Change("log.retention.ms", AlterOp.SET, "1")),
                false)).isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Dynamic broker configs cannot be changed"
                + " through the Kafka API in a kaas cluster: the KafkaCluster resource holds the brokers' settings"));
        assertThat(cluster.describe(new DescribeCommand(THIS_BROKER, List.of("log.retention.ms"), false, false))
                .entries()).extracting(Entry::value).containsExactly(TestBroker.RETENTION_MS);
    }

    private Outcome alterThisBroker(String key, String value) {
        return broker.configs.alterIncremental(THIS_BROKER, List.of(new Change(key, AlterOp.SET, value)), false);
    }

    // ---------------------------------------------------------------- legacy alter

    @Test
    void legacyAlterReplacesEveryOverride() {
        broker.create("orders", 1, Map.of("retention.ms", "1000", "segment.ms", "2000"));

        assertThat(broker.configs.alterAll(ORDERS, List.of(new Setting("max.message.bytes", "5000")), false))
                .isEqualTo(Outcome.OK);

        assertThat(stored().configs()).containsOnly(Map.entry("max.message.bytes", "5000"));
    }

    @Test
    void legacyAlterRefusesDuplicatesNullsAndLogLevels() {
        broker.create("orders", 1);
        List<Setting> withNull = new ArrayList<>();
        withNull.add(new Setting("retention.ms", null));

        assertThat(broker.configs.alterAll(ORDERS, List.of(new Setting("a", "1"), new Setting("a", "2")), false).message())
                .isEqualTo("Error due to duplicate config keys");
        assertThat(broker.configs.alterAll(ORDERS, withNull, false).message())
                .isEqualTo("Null value not supported for : retention.ms");
        assertThat(broker.configs.alterAll(new Resource(ConfigResourceType.BROKER_LOGGER, "3"), List.of(), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_REQUEST, "Unknown resource type 8"));
        assertThat(broker.configs.alterAll(ORDERS, List.of(new Setting("bogus", "1")), false))
                .isEqualTo(new Outcome(KafkaError.INVALID_CONFIG, "Unknown topic config name: bogus"));
    }

    // ---------------------------------------------------------------- CreateTopics

    @Test
    void aNewTopicsConfigsAreReportedWithTheirSources() {
        List<Entry> entries = broker.configs.topicConfigs(Map.of("retention.ms", "5"));

        assertThat(entries).extracting(Entry::name).containsExactlyElementsOf(TopicConfigKeys.sortedNames());
        assertThat(entries).filteredOn(e -> e.name().equals("retention.ms")).singleElement()
                .satisfies(e -> assertThat(e.source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG));
        assertThat(entries).allSatisfy(e -> {
            assertThat(e.synonyms()).isEmpty();
            assertThat(e.documentation()).isNull();
        });
    }

    private Described describe(Resource resource, List<String> keys, boolean synonyms, boolean docs) {
        return broker.configs.describe(new DescribeCommand(resource, keys, synonyms, docs));
    }

    private static Entry entry(Described described, String name) {
        return described.entries().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    private Topic stored() {
        return broker.store.loadAll().stream().filter(t -> t.name().equals("orders")).findFirst().orElseThrow();
    }
}
