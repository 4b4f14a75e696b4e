package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code broker.rack} ({@code KAAS_BROKER_RACK}): what rack-aware clients and assignors read. */
class BrokerRackIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv("KAAS_BROKER_RACK", "zone-b");

    @Test
    void clientsSeeTheBrokersRack(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("racked");
        kaas.createTopic(topic, 2);
        Admin admin = kaas.admin();

        assertThat(admin.describeCluster().nodes().get()).extracting(Node::rack).containsExactly("zone-b");
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "0");
        Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
        assertThat(config.get("broker.rack").value()).isEqualTo("zone-b");
        try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer()) {
            assertThat(consumer.partitionsFor(topic)).hasSize(2)
                    .allSatisfy(p -> assertThat(p.leader().rack()).isEqualTo("zone-b"));
        }
    }
}
