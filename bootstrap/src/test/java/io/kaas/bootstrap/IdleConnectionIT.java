package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.io.UncheckedIOException;
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
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code connections.max.idle.ms}: idle connections are closed, busy ones are not, and clients reconnect.
 * Elapsed time is only bounded from below (a loaded machine makes it longer, never shorter); upper bounds
 * are generous deadlines for something that must happen.
 */
class IdleConnectionIT {
    /** Long enough that a stalled test thread between connect and first request is not mistaken for idleness. */
    private static final int IDLE_MS = 1_000;
    /** Slack for a broker timer kept in whole milliseconds; far below the waits asserted. */
    private static final long TIMER_SLACK_MS = 50;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_CONNECTIONS_MAX_IDLE_MS", Integer.toString(IDLE_MS));

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTime(EmbeddedKaas kaas) {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            long sent = System.nanoTime();
            ApiVersionsResponse response = raw.send(new ApiVersionsRequest.Builder().build((short) 3));
            assertThat(response.data().errorCode()).isZero(); // answered: nothing is in flight any more

            assertThat(raw.closedByPeer(EmbeddedKaas.DEFAULT_TIMEOUT)).as("closed once idle").isTrue();
            // The broker's last I/O on the connection was answering, after `sent`: it may close idle.ms after that.
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("not before connections.max.idle.ms")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(IDLE_MS - TIMER_SLACK_MS));
        }
    }

    @Test
    void aConnectionWaitingOnALongPollIsNotIdle(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("idle-poll");
        kaas.createTopic(topic, 1);
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition(topic, 0), new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, -1L, 1 << 20,
                Optional.empty()));
        int maxWaitMs = 3 * IDLE_MS;
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            long sent = System.nanoTime();
            // Nothing is read or written while the broker holds the fetch; the answer must still come on this connection.
            FetchResponse response;
            try {
                response = raw.send(FetchRequest.Builder.forConsumer(RawKafkaConnection.FETCH_VERSION, maxWaitMs, 1,
                        partitions).build(RawKafkaConnection.FETCH_VERSION));
            } catch (UncheckedIOException e) {
                throw new AssertionError("the broker closed the connection as idle while the fetch was parked", e);
            }
            Duration parked = Duration.ofNanos(System.nanoTime() - sent);
            assertThat(response.data().errorCode()).isZero();
            assertThat(response.data().responses().get(0).partitions().get(0).errorCode()).isZero();
            assertThat(parked).as("parked for the whole wait, several idle times, on a connection that stayed open")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(maxWaitMs - TIMER_SLACK_MS));

            // Answered, the connection has nothing in flight and is idle like any other.
            assertThat(raw.closedByPeer(EmbeddedKaas.DEFAULT_TIMEOUT)).as("closed once idle after the answer").isTrue();
        }
    }

    @Test
    void aProducerReconnectsAfterItsConnectionWasClosedForIdleness(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("idle-producer");
        kaas.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
            producer.send(new ProducerRecord<>(topic, "one".getBytes(StandardCharsets.UTF_8))).get();
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> closedConnections(producer) >= 1);
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
