package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Everything the admin APIs changed survives a restart: topics, ids, partition counts, configs and data. */
class AdminRestartIT {
    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create(); // one broker per test: restarts are destructive

    @Test
    @SuppressWarnings("deprecation")
    void configsPartitionsIdsAndDataSurviveARestart(EmbeddedKaas kaas) throws Exception {
        Admin admin = kaas.admin();
        CreateTopicsResult created = admin.createTopics(List.of(
                new NewTopic("orders", 2, (short) 1).configs(Map.of("retention.ms", "3600000")),
                new NewTopic("stamped", 1, (short) 1)));
        created.all().get();
        Uuid ordersId = created.topicId("orders").get();
        ConfigResource orders = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
        ConfigResource stamped = new ConfigResource(ConfigResource.Type.TOPIC, "stamped");
        admin.incrementalAlterConfigs(Map.of(orders, List.of(
                new AlterConfigOp(new ConfigEntry("max.message.bytes", "50000"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND)))).all().get();
        admin.alterConfigs(Map.of(stamped, new Config(List.of(
                new ConfigEntry("message.timestamp.type", "LogAppendTime"))))).all().get();
        admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(4))).all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        for (int p = 0; p < 4; p++) {
            // keyed: orders is now compacted, which refuses records without a key, as Apache does
            producer.send(new ProducerRecord<>("orders", p, ("key-" + p).getBytes(), ("order-" + p).getBytes())).get();
        }
        long stampedAt = producer.send(new ProducerRecord<>("stamped", 0, 5L, null, "s".getBytes())).get().timestamp();
        kaas.closeClients();

        kaas.restart();

        Admin after = kaas.admin();
        TopicDescription described = after.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(described.topicId()).isEqualTo(ordersId);
        assertThat(described.partitions()).hasSize(4);
        Map<ConfigResource, Config> configs = after.describeConfigs(List.of(orders, stamped)).all().get();
        assertThat(configs.get(orders).get("retention.ms").value()).isEqualTo("3600000");
        assertThat(configs.get(orders).get("max.message.bytes").value()).isEqualTo("50000");
        assertThat(configs.get(orders).get("cleanup.policy").value()).isEqualTo("delete,compact");
        assertThat(configs.get(orders).get("cleanup.policy").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(configs.get(stamped).get("message.timestamp.type").value()).isEqualTo("LogAppendTime");

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 1),
                new TopicPartition("orders", 2), new TopicPartition("orders", 3), new TopicPartition("stamped", 0)));
        List<ConsumerRecord<byte[], byte[]>> records = EmbeddedKaas.consume(consumer, 5, Duration.ofSeconds(15));
        assertThat(records).extracting(r -> new String(r.value()))
                .containsExactlyInAnyOrder("order-0", "order-1", "order-2", "order-3", "s");
        ConsumerRecord<byte[], byte[]> s = records.stream().filter(r -> r.topic().equals("stamped")).findFirst().orElseThrow();
        assertThat(s.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(s.timestamp()).isEqualTo(stampedAt);
    }
}
