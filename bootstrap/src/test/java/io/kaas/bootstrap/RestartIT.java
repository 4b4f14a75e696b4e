package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With disk storage (the default) topic definitions survive a restart over the same data
 * directory. Records are not asserted: the durable log engine is separate work.
 */
class RestartIT {
    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create(); // one broker per test: restarts are destructive

    @Test
    void topicsSurviveARestart(EmbeddedKaas kaas) throws Exception {
        Admin admin = kaas.admin();
        CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1),
                new NewTopic("audit.log", 1, (short) 1).configs(Map.of("retention.ms", "3600000")),
                new NewTopic("doomed", 2, (short) 1)));
        created.all().get();
        Uuid ordersId = created.topicId("orders").get();
        Uuid auditId = created.topicId("audit.log").get();
        admin.deleteTopics(List.of("doomed")).all().get();
        String clusterId = admin.describeCluster().clusterId().get();
        int portBefore = kaas.port();
        kaas.closeClients();

        kaas.restart();

        Admin after = kaas.admin();
        assertThat(after.listTopics().names().get()).containsExactlyInAnyOrder("orders", "audit.log");
        Map<String, TopicDescription> described = after.describeTopics(List.of("orders", "audit.log")).allTopicNames().get();
        assertThat(described.get("orders").topicId()).isEqualTo(ordersId);
        assertThat(described.get("orders").partitions()).hasSize(3)
                .allSatisfy(p -> assertThat(p.leader().id()).isZero());
        assertThat(described.get("audit.log").topicId()).isEqualTo(auditId);
        assertThat(described.get("audit.log").partitions()).hasSize(1);
        assertThat(after.describeTopics(TopicCollection.ofTopicIds(List.of(ordersId))).allTopicIds().get())
                .containsOnlyKeys(ordersId);
        assertThat(after.describeCluster().clusterId().get()).as("the cluster id is kept on disk").isEqualTo(clusterId);
        assertThat(kaas.port()).as("restarted on its old port").isEqualTo(portBefore);

        // The restored topics take and serve records.
        kaas.producer().send(new ProducerRecord<>("orders", 2, null, "after restart".getBytes())).get();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition("orders", 2)));
        assertThat(EmbeddedKaas.consume(consumer, 1, Duration.ofSeconds(10))).singleElement()
                .satisfies(r -> assertThat(r.value()).asString().isEqualTo("after restart"));
    }

    @Test
    void aRecreatedTopicKeepsItsNewIdentityAcrossARestart(EmbeddedKaas kaas) throws Exception {
        Admin admin = kaas.admin();
        Uuid first = admin.createTopics(List.of(new NewTopic("reborn", 1, (short) 1))).topicId("reborn").get();
        admin.deleteTopics(List.of("reborn")).all().get();
        Uuid second = admin.createTopics(List.of(new NewTopic("reborn", 4, (short) 1))).topicId("reborn").get();
        assertThat(second).isNotEqualTo(first);
        kaas.closeClients();

        kaas.restart();

        TopicDescription reborn = kaas.admin().describeTopics(List.of("reborn")).allTopicNames().get().get("reborn");
        assertThat(reborn.topicId()).isEqualTo(second);
        assertThat(reborn.partitions()).hasSize(4);
    }

    @Test
    void memoryStorageForgetsTopicsOnRestart() throws Exception {
        try (EmbeddedKaas memory = EmbeddedKaas.inTempDir(Map.of("KAAS_STORAGE", "memory")).start()) {
            memory.createTopic("ephemeral", 1);
            assertThat(memory.admin().listTopics().names().get()).contains("ephemeral");
            memory.closeClients();

            memory.restart();

            assertThat(memory.admin().listTopics().names().get()).doesNotContain("ephemeral");
        }
    }
}
