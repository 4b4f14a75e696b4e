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

/**
 * Fetch waits in the broker (fetch.max.wait.ms) instead of spinning, and wakes up when data arrives.
 * The assertions hold on a loaded machine: elapsed time is only bounded from below (a slow machine
 * makes it longer, never shorter), and the wake-up is shown by a fetch that would otherwise wait ten minutes.
 */
class LongPollIT {
    /** Slack for a broker timer kept in whole milliseconds; far below the waits asserted. */
    private static final long TIMER_SLACK_MS = 50;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void pollingAnEmptyPartitionDoesNotSpin() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("long-poll-idle");
        kaas.createTopic(topic, 1);
        int maxWaitMs = 500;
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, maxWaitMs));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        assertThat(consumer.position(tp)).isZero(); // offsets resolved: from here on the consumer only fetches

        double before = fetchTotal(consumer);
        long started = System.nanoTime();
        await("three empty fetches answered")
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .atMost(EmbeddedKaas.DEFAULT_TIMEOUT.multipliedBy(2))
                .until(() -> {
                    assertThat(consumer.poll(Duration.ofMillis(100))).isEmpty();
                    return fetchTotal(consumer) - before >= 3;
                });
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        long answered = (long) (fetchTotal(consumer) - before);

        // The consumer has one fetch in flight per broker, so fetches follow each other; a broker that holds each
        // empty one for fetch.max.wait.ms needs at least that long per answered fetch (all were sent after `started`).
        // One answering at once is asked again at once: three answers within milliseconds.
        assertThat(elapsed).as("time for %d answered empty fetches", answered)
                .isGreaterThanOrEqualTo(Duration.ofMillis(answered * maxWaitMs - TIMER_SLACK_MS));
    }

    @Test
    void aRecordProducedWhileTheFetchIsParkedWakesIt() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("long-poll-wake");
        kaas.createTopic(topic, 1);
        // So long that only the append can end the wait within the test: a broker that is not woken by it answers
        // after ten minutes (with the record, re-read then), long after the await below gave up. The client's
        // request timeout exceeds it, so the client does not abandon the parked fetch either.
        int maxWaitMs = 600_000;
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, maxWaitMs,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, maxWaitMs + 60_000));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        assertThat(consumer.position(tp)).isZero(); // offsets resolved: the next request is the fetch
        double fetchesBefore = fetchTotal(consumer);
        double requestsBefore = requestTotal(consumer);

        // The fetch goes out, and the broker parks it: it is still unanswered after the poll returns empty.
        await("the fetch on the wire").pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .atMost(EmbeddedKaas.DEFAULT_TIMEOUT)
                .until(() -> consumer.poll(Duration.ofMillis(50)).isEmpty() && requestTotal(consumer) > requestsBefore);
        assertThat(consumer.poll(Duration.ofMillis(300))).isEmpty();
        assertThat(fetchTotal(consumer)).as("the fetch is parked, not answered").isEqualTo(fetchesBefore);

        kaas.producer().send(new ProducerRecord<>(topic, 0, null, "wake up".getBytes())).get();

        List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
        double[] answeredWhenReceived = new double[1];
        await("the record, woken by the append").pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .atMost(EmbeddedKaas.DEFAULT_TIMEOUT.multipliedBy(2))
                .until(() -> {
                    consumer.poll(Duration.ofMillis(50)).forEach(received::add);
                    answeredWhenReceived[0] = fetchTotal(consumer) - fetchesBefore;
                    return !received.isEmpty();
                });

        assertThat(received).singleElement().satisfies(r -> assertThat(r.value()).asString().isEqualTo("wake up"));
        // Woken by the append, the parked fetch itself carries the record (not an empty answer and a second fetch).
        assertThat(answeredWhenReceived[0]).as("fetches answered up to the record").isEqualTo(1.0);
        // The consumer has parked its next fetch; closing would wait for it (the close-session fetch queues
        // behind it on the connection), so do not wait.
        consumer.close(Duration.ZERO);
    }

    private static double fetchTotal(KafkaConsumer<?, ?> consumer) {
        return CompressionIT.metric(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-total");
    }

    /** Requests the consumer has written to any connection. */
    private static double requestTotal(KafkaConsumer<?, ?> consumer) {
        return CompressionIT.metric(consumer.metrics(), "consumer-metrics", "request-total");
    }
}
