package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.record.TimestampType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Topic configuration through the real AdminClient, and its effect on producers, consumers and the
 * data directory: describe with sources, the four incremental operations and the legacy alter,
 * validation with Apache's errors, and changes that take effect while the broker runs.
 */
class TopicConfigIT {
    private static final long RETENTION_CHECK_MS = 200;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_RETENTION_CHECK_INTERVAL_MS", Long.toString(RETENTION_CHECK_MS))
            .withEnv("KAAS_MESSAGE_MAX_BYTES", "200000");

    @Test
    void describeShowsOverridesAsDynamicTopicConfigAndTheRestAsDefaults() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String topic = EmbeddedKaas.uniqueTopicName("described");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "3600000")))).all().get();

        Config config = describe(admin, topic);

        ConfigEntry retention = config.get("retention.ms");
        assertThat(retention.value()).isEqualTo("3600000");
        assertThat(retention.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(retention.isReadOnly()).isFalse();
        assertThat(retention.synonyms()).extracting(ConfigEntry.ConfigSynonym::source).startsWith(
                ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(retention.type()).isEqualTo(ConfigEntry.ConfigType.LONG);
        assertThat(retention.documentation()).isNotBlank();
        ConfigEntry segment = config.get("segment.bytes");
        assertThat(segment.value()).isEqualTo("1073741824");
        assertThat(segment.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        ConfigEntry maxBytes = config.get("max.message.bytes");
        assertThat(maxBytes.value()).as("the broker's message.max.bytes").isEqualTo("200000");
        assertThat(maxBytes.source()).as("set in the environment").isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(config.entries()).hasSize(31);
    }

    @Test
    void theBrokerReportsItsRealSettingsTheStaticOnesReadOnly() throws Exception {
        Admin admin = KAAS.kaas().admin();
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "0");

        Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);

        assertThat(config.get("broker.id").value()).isEqualTo("0");
        assertThat(config.get("message.max.bytes").value()).isEqualTo("200000");
        assertThat(config.get("log.retention.check.interval.ms").value()).isEqualTo(Long.toString(RETENTION_CHECK_MS));
        assertThat(config.get("log.dirs").value()).isEqualTo(KAAS.kaas().dataDir().toAbsolutePath().toString());
        assertThat(config.get("socket.send.buffer.bytes").value()).as("Apache's default").isEqualTo("102400");
        assertThat(config.get("socket.receive.buffer.bytes").value()).as("Apache's default").isEqualTo("102400");
        assertThat(config.get("log.dirs").isReadOnly()).isTrue();
        assertThat(config.get("message.max.bytes").isReadOnly()).as("dynamic in Apache").isFalse();
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(broker, List.of(new AlterConfigOp(
                new ConfigEntry("log.dirs", "/elsewhere"), AlterConfigOp.OpType.SET)))).all().get())
                .cause().isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("Cannot update these configs dynamically");
    }

    @Test
    void incrementalOperationsChangeTheTopicsConfig() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String topic = EmbeddedKaas.uniqueTopicName("incremental");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("segment.ms", "600000")))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);

        admin.incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", "7200000"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("segment.ms", null), AlterConfigOp.OpType.DELETE),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND)))).all().get();
        Config afterFirst = describe(admin, topic);
        assertThat(afterFirst.get("retention.ms").value()).isEqualTo("7200000");
        assertThat(afterFirst.get("segment.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(afterFirst.get("cleanup.policy").value()).isEqualTo("delete,compact");

        admin.incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"), AlterConfigOp.OpType.SUBTRACT)))).all().get();
        assertThat(describe(admin, topic).get("cleanup.policy").value()).isEqualTo("compact");
    }

    @Test
    @SuppressWarnings("deprecation")
    void theLegacyAlterReplacesTheWholeSet() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String topic = EmbeddedKaas.uniqueTopicName("legacy");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("segment.ms", "600000")))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);

        admin.alterConfigs(Map.of(resource, new Config(List.of(new ConfigEntry("retention.bytes", "1048576"))))).all().get();

        Config config = describe(admin, topic);
        assertThat(config.get("retention.bytes").value()).isEqualTo("1048576");
        assertThat(config.get("retention.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("segment.ms").source()).as("left out, so reset").isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void badConfigsGetApachesErrorsAndChangeNothing() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String topic = EmbeddedKaas.uniqueTopicName("strict");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);

        assertAlterFails(admin, resource, new ConfigEntry("retention.ms", "soon"), InvalidConfigurationException.class,
                "Invalid value soon for configuration retention.ms: Not a number of type LONG");
        assertAlterFails(admin, resource, new ConfigEntry("no.such.config", "1"), InvalidConfigurationException.class,
                "Unknown topic config name: no.such.config");
        assertAlterFails(admin, resource, new ConfigEntry("min.insync.replicas", "0"), InvalidConfigurationException.class,
                "Invalid value 0 for configuration min.insync.replicas: Value must be at least 1");
        assertAlterFails(admin, new ConfigResource(ConfigResource.Type.TOPIC, "no-such-topic"),
                new ConfigEntry("retention.ms", "1"), UnknownTopicOrPartitionException.class, "");
        assertThat(describe(admin, topic).entries()).noneMatch(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
    }

    @Test
    void loweringRetentionReclaimsClosedSegmentsAtTheNextSweep() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("retained");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("segment.bytes", "1024")))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        for (int i = 0; i < 40; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[200])).get();
        }
        TopicPartition tp = new TopicPartition(topic, 0);
        long segmentsBefore = segmentFiles(kaas, topic);
        assertThat(segmentsBefore).as("small segments roll often").isGreaterThan(5);
        assertThat(earliest(admin, tp)).isZero();

        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", "1"), AlterConfigOp.OpType.SET)))).all().get();

        Awaitility.await("the next retention sweep").atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(segmentFiles(kaas, topic)).isLessThan(segmentsBefore);
            assertThat(earliest(admin, tp)).isPositive();
        });
        assertThat(segmentFiles(kaas, topic)).as("the active segment stays").isGreaterThanOrEqualTo(1);
    }

    @Test
    void loweringMaxMessageBytesRefusesALargerBatch() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        Admin admin = kaas.admin();
        String topic = EmbeddedKaas.uniqueTopicName("capped");
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        producer.send(new ProducerRecord<>(topic, 0, null, new byte[5000])).get();

        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                new AlterConfigOp(new ConfigEntry("max.message.bytes", "1000"), AlterConfigOp.OpType.SET)))).all().get();

        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, 0, null, new byte[5000])).get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("exceeds the maximum configured value of 1000");
        RecordMetadata small = producer.send(new ProducerRecord<>(topic, 0, null, new byte[100])).get();
        assertThat(small.offset()).isEqualTo(1);
    }

    @Test
    void aLogAppendTimeTopicGivesConsumersTheBrokersTimestamps() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("stamped");
        kaas.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                .configs(Map.of("message.timestamp.type", "LogAppendTime")))).all().get();
        long before = System.currentTimeMillis();

        RecordMetadata sent = kaas.producer().send(new ProducerRecord<>(topic, 0, 1_000L, null, "hello".getBytes())).get();

        long after = System.currentTimeMillis();
        assertThat(sent.timestamp()).isBetween(before, after);
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        ConsumerRecord<byte[], byte[]> record = EmbeddedKaas.consume(consumer, 1, Duration.ofSeconds(15)).get(0);
        assertThat(record.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(record.timestamp()).isEqualTo(sent.timestamp());
        assertThat(new String(record.value())).isEqualTo("hello");
    }

    private static Config describe(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)
                .includeDocumentation(true)).all().get().get(resource);
    }

    private static void assertAlterFails(Admin admin, ConfigResource resource, ConfigEntry entry,
                                         Class<? extends Throwable> error, String message) {
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(entry, AlterConfigOp.OpType.SET)))).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(error)
                .satisfies(e -> {
                    if (!message.isEmpty()) {
                        assertThat(e).hasMessage(message);
                    }
                });
    }

    private static long earliest(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get().offset();
    }

    static long segmentFiles(EmbeddedKaas kaas, String topic) throws IOException {
        Path dir = kaas.dataDir().resolve(topic).resolve("0");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).count();
        }
    }
}
