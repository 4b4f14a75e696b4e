package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dynamic broker configs through the real AdminClient, against Apache Kafka 3.7.2's answers for the
 * same requests: set on this broker and as the cluster-wide default, reported with Apache's sources
 * and synonyms, applied to topics' defaults, kept across a restart, reverted by DELETE, and refused
 * with Apache's errors.
 */
class DynamicBrokerConfigIT {
    private static final ConfigResource THIS_BROKER = new ConfigResource(ConfigResource.Type.BROKER, "0");
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final String RELOGIN = "sasl.kerberos.min.time.before.relogin";

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create(); // one broker per test: restarts are destructive

    @Test
    void setOnTheBrokerAndTheClusterDefaultReportedAppliedKeptAcrossARestartAndReverted(EmbeddedKaas kaas)
            throws Exception {
        Admin admin = kaas.admin();
        alter(admin, THIS_BROKER, set(RELOGIN, "70000"), set("num.io.threads", "16"));
        alter(admin, CLUSTER_DEFAULT, set("log.retention.ms", "2222222"), set("message.max.bytes", "300000"));
        String topic = EmbeddedKaas.uniqueTopicName("dyn");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();

        assertReported(kaas.admin(), topic);
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                2_000_000))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, new byte[400_000])).get())
                    .as("the cluster-wide message.max.bytes caps the new topic's batches")
                    .cause().isInstanceOf(RecordTooLargeException.class);
            producer.send(new ProducerRecord<>(topic, new byte[200_000])).get();
        }
        kaas.closeClients();

        kaas.restart();

        Admin after = kaas.admin();
        assertReported(after, topic);
        alter(after, THIS_BROKER, delete(RELOGIN));
        alter(after, CLUSTER_DEFAULT, delete("log.retention.ms"));
        ConfigEntry relogin = describe(after, THIS_BROKER).get(RELOGIN);
        assertThat(relogin.value()).isEqualTo("60000");
        assertThat(relogin.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        ConfigEntry retention = describe(after, new ConfigResource(ConfigResource.Type.TOPIC, topic)).get("retention.ms");
        assertThat(retention.value()).as("back to the startup default").isEqualTo("604800000");
        assertThat(retention.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(describe(after, CLUSTER_DEFAULT).entries()).extracting(ConfigEntry::name)
                .containsExactly("message.max.bytes");
    }

    /** What Apache 3.7.2 reported for the same settings (broker 1 there). */
    private static void assertReported(Admin admin, String topic) throws Exception {
        Config broker = describe(admin, THIS_BROKER);
        ConfigEntry relogin = broker.get(RELOGIN);
        assertThat(relogin.value()).isEqualTo("70000");
        assertThat(relogin.source()).isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
        assertThat(relogin.isReadOnly()).isFalse();
        assertThat(relogin.type()).isEqualTo(ConfigEntry.ConfigType.LONG);
        assertThat(relogin.synonyms()).extracting(ConfigEntry.ConfigSynonym::value, ConfigEntry.ConfigSynonym::source)
                .containsExactly(tuple("70000", ConfigSource.DYNAMIC_BROKER_CONFIG),
                        tuple("60000", ConfigSource.DEFAULT_CONFIG));
        assertThat(broker.get("num.io.threads").value()).isEqualTo("16");
        ConfigEntry retention = broker.get("log.retention.ms");
        assertThat(retention.value()).isEqualTo("2222222");
        assertThat(retention.source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        assertThat(broker.get("broker.id").isReadOnly()).isTrue();

        Config defaults = describe(admin, CLUSTER_DEFAULT);
        assertThat(defaults.entries()).extracting(ConfigEntry::name, ConfigEntry::value, ConfigEntry::source)
                .containsExactlyInAnyOrder(
                        tuple("log.retention.ms", "2222222",
                                ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                        tuple("message.max.bytes", "300000",
                                ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));

        Config topicConfig = describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, topic));
        assertThat(topicConfig.get("retention.ms").value()).isEqualTo("2222222");
        assertThat(topicConfig.get("retention.ms").source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        assertThat(topicConfig.get("max.message.bytes").value()).isEqualTo("300000");
    }

    @Test
    void refusedAsApacheRefusesAndValidateOnlyKeepsNothing(EmbeddedKaas kaas) throws Exception {
        Admin admin = kaas.admin();

        assertRefused(admin, THIS_BROKER, set(RELOGIN, "abc"),
                "Invalid value abc for configuration sasl.kerberos.min.time.before.relogin: Not a number of type LONG");
        assertRefused(admin, THIS_BROKER, set("log.segment.bytes", "5"),
                "Invalid value 5 for configuration log.segment.bytes: Value must be at least 14");
        assertRefused(admin, THIS_BROKER, set("log.dirs", "/elsewhere"),
                "Cannot update these configs dynamically: Set(log.dirs)");
        assertRefused(admin, CLUSTER_DEFAULT, set(RELOGIN, "80000"),
                "Cannot update these configs at default cluster level, broker id must be specified: Set(" + RELOGIN + ")");
        assertRefused(admin, THIS_BROKER, set("log.roll.ms", "0"),
                "requirement failed: log.roll.ms must be greater than or equal to 1");
        assertRefused(admin, THIS_BROKER, set("log.cleaner.threads", "3"), "Invalid value"
                + " org.apache.kafka.common.config.ConfigException: Log cleaner threads cannot be increased to more than"
                + " double the current value 1 for configuration Invalid dynamic configuration");

        admin.incrementalAlterConfigs(Map.of(THIS_BROKER, List.of(set(RELOGIN, "70000"))),
                new AlterConfigsOptions().validateOnly(true)).all().get();
        assertThat(describe(admin, THIS_BROKER).get(RELOGIN).source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(kaas.dataDir().resolve("__cluster/broker-configs.json")).doesNotExist();

        alter(admin, THIS_BROKER, set("log.cleaner.threads", "2"));
        assertThat(kaas.dataDir().resolve("__cluster/broker-configs.json")).exists();
    }

    private static void assertRefused(Admin admin, ConfigResource resource, AlterConfigOp op, String message) {
        assertThatThrownBy(() -> alter(admin, resource, op)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    private static void alter(Admin admin, ConfigResource resource, AlterConfigOp... ops) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, Arrays.asList(ops))).all().get();
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String name) {
        return new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE);
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)).all().get()
                .get(resource);
    }
}
