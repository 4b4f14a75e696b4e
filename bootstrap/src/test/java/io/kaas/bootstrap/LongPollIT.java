package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Fetch waits in the broker (fetch.max.wait.ms) instead of spinning, and wakes up when data arrives. */
class LongPollIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void pollingAnEmptyPartitionDoesNotSpin() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("long-poll-idle");
        kaas.createTopic(topic, 1);
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(); // fetch.max.wait.ms=500, fetch.min.bytes=1 (defaults)
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        assertThat(consumer.position(tp)).isZero(); // offsets resolved: from here on the consumer only fetches

        double before = fetchTotal(consumer);
        long started = System.nanoTime();
        await("an empty partition for a second")
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .until(() -> consumer.poll(Duration.ofMillis(100)).isEmpty());
        double elapsedSeconds = (System.nanoTime() - started) / 1e9;
        double fetches = fetchTotal(consumer) - before;

        // A broker answering empty fetches at once would be asked hundreds of times; one that holds each for
        // 500 ms is asked two or three times a second.
        assertThat(fetches).as("fetches answered in %.2f s", elapsedSeconds).isBetween(1.0, 5.0);
    }

    @Test
    void aRecordProducedWhileTheFetchIsParkedArrivesPromptly() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("long-poll-wake");
        kaas.createTopic(topic, 1);
        // A long wait makes the difference stark: woken by the append, or answered only when the wait runs out.
        int maxWaitMs = 10_000;
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, maxWaitMs));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        assertThat(consumer.position(tp)).isZero();
        double fetchesBefore = fetchTotal(consumer);
        // Sends a fetch that the broker parks; it stays in flight after poll returns empty.
        assertThat(consumer.poll(Duration.ofMillis(300))).isEmpty();
        assertThat(fetchTotal(consumer)).as("the fetch is still parked, not answered").isEqualTo(fetchesBefore);

        kaas.producer().send(new ProducerRecord<>(topic, 0, null, "wake up".getBytes())).get();
        long produced = System.nanoTime();

        List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
        await("the record, well before fetch.max.wait.ms")
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .atMost(Duration.ofMillis(2_000))
                .until(() -> {
                    consumer.poll(Duration.ofMillis(50)).forEach(received::add);
                    return !received.isEmpty();
                });
        long latencyMs = (System.nanoTime() - produced) / 1_000_000;

        assertThat(received).singleElement().satisfies(r -> assertThat(r.value()).asString().isEqualTo("wake up"));
        assertThat(latencyMs).isLessThan(maxWaitMs / 5);
        // The consumer has parked its next fetch; closing would wait for it (the close-session fetch queues
        // behind it on the connection), so do not wait.
        consumer.close(Duration.ZERO);
    }

    private static double fetchTotal(KafkaConsumer<?, ?> consumer) {
        return CompressionIT.metric(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-total");
    }
}
