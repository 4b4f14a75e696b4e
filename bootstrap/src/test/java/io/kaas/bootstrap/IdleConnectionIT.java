package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code connections.max.idle.ms}: idle connections are closed, busy ones are not, and clients reconnect. */
class IdleConnectionIT {
    private static final int IDLE_MS = 400;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_CONNECTIONS_MAX_IDLE_MS", Integer.toString(IDLE_MS));

    @Test
    void anIdleConnectionIsClosed(EmbeddedKaas kaas) {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            raw.send(new ApiVersionsRequest.Builder().build((short) 3));
            assertThat(raw.closedByPeer(Duration.ofMillis(IDLE_MS / 2))).as("not yet").isFalse();
            assertThat(raw.closedByPeer(Duration.ofSeconds(5))).as("after the idle time").isTrue();
        }
    }

    @Test
    void aConnectionWaitingOnALongPollIsNotIdle(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("idle-poll");
        kaas.createTopic(topic, 1);
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition(topic, 0), new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, -1L, 1 << 20,
                Optional.empty()));
        int maxWaitMs = 4 * IDLE_MS;
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            long start = System.nanoTime();
            FetchResponse response = raw.send(FetchRequest.Builder.forConsumer(RawKafkaConnection.FETCH_VERSION,
                    maxWaitMs, 1, partitions).build(RawKafkaConnection.FETCH_VERSION));
            assertThat(response.data().errorCode()).isZero();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("parked for the whole wait")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(maxWaitMs - 50));
        }
    }

    @Test
    void aProducerReconnectsAfterItsConnectionWasClosedForIdleness(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("idle-producer");
        kaas.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
            producer.send(new ProducerRecord<>(topic, "one".getBytes(StandardCharsets.UTF_8))).get();
            await().atMost(Duration.ofSeconds(10)).until(() -> closedConnections(producer) >= 1);
            assertThat(producer.send(new ProducerRecord<>(topic, "two".getBytes(StandardCharsets.UTF_8))).get().offset())
                    .isEqualTo(1);
        }
    }

    /** The producer's own count of connections closed under it. */
    private static double closedConnections(KafkaProducer<byte[], byte[]> producer) {
        return producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics") && e.getKey().name().equals("connection-close-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }
}
