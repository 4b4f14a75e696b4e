package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.application.fetch.FetchSessions;
import io.kaas.application.fetch.FetchSessions.Exchange;
import io.kaas.application.fetch.FetchSessions.Kind;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.domain.error.KafkaError;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KIP-227 fetch sessions with a real consumer, checked on the broker's side through every fetch it
 * answered: the consumer's first fetch opens a session, later ones are incremental and carry only
 * what changed, both ways; a restarted broker has lost the session and the consumer opens a new one.
 */
class FetchSessionIT {
    /** Short, so that a fetch parked for data comes back soon when a test waits for none in flight. */
    private static final Map<String, Object> CONSUMER = Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create();

    @Test
    void aConsumerOfAThousandPartitionsFetchesIncrementallyCarryingOnlyWhatChanged() throws Exception {
        EmbeddedKaas broker = kaas.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("fetch-sessions");
        int partitionCount = 1000;
        createLargeTopic(broker, topic, partitionCount);
        List<TopicPartition> partitions = partitions(topic, partitionCount);
        produce(broker, partitions, "first-");
        List<Exchange> exchanges = observe(broker.broker().fetchSessions());

        KafkaConsumer<byte[], byte[]> consumer = broker.consumer(CONSUMER);
        consumer.assign(partitions);
        assertOnePerPartition(EmbeddedKaas.consume(consumer, partitionCount, EmbeddedKaas.DEFAULT_TIMEOUT),
                partitions, "first-");

        List<Exchange> reading = snapshot(exchanges);
        assertThat(reading.get(0).kind()).as("the first fetch is full and opens a session").isEqualTo(Kind.FULL);
        int session = reading.get(0).sessionId();
        assertThat(session).isNotZero();
        assertThat(reading.subList(1, reading.size())).as("every later fetch is incremental in that session")
                .allSatisfy(e -> assertIncremental(e, session));

        // Nothing changes: the consumer keeps polling, requests and answers name no partition.
        int quietFrom = exchanges.size();
        pollUntil(consumer, () -> trailingEmpty(snapshot(exchanges).subList(quietFrom, exchanges.size())) >= 3);
        assertThat(snapshot(exchanges).subList(quietFrom, exchanges.size()))
                .allSatisfy(e -> assertIncremental(e, session));

        // Three partitions get a record: only they travel, in requests and answers.
        List<TopicPartition> changed = List.of(partitions.get(7), partitions.get(500), partitions.get(999));
        int changedFrom = exchanges.size();
        produce(broker, changed, "second-");
        assertOnePerPartition(EmbeddedKaas.consume(consumer, changed.size(), EmbeddedKaas.DEFAULT_TIMEOUT), changed,
                "second-");
        List<Exchange> changing = snapshot(exchanges).subList(changedFrom, exchanges.size());
        assertThat(changing).allSatisfy(e -> {
            assertIncremental(e, session);
            assertThat(e.requestedPartitions()).as("partitions the request named").isLessThanOrEqualTo(changed.size());
            assertThat(e.answeredPartitions()).as("partitions the answer carried").isLessThanOrEqualTo(changed.size());
        });
        assertThat(changing.stream().mapToInt(Exchange::answeredPartitions).sum()).isGreaterThanOrEqualTo(changed.size());
        assertThat(broker.broker().fetchSessions().size()).isEqualTo(1);
    }

    @Test
    void aRestartedBrokerHasLostTheSessionAndTheConsumerOpensANewOneWithoutLossOrDuplicates() {
        EmbeddedKaas broker = kaas.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("fetch-session-restart");
        int partitionCount = 100;
        broker.createTopic(topic, partitionCount);
        List<TopicPartition> partitions = partitions(topic, partitionCount);
        produce(broker, partitions, "before-");
        KafkaConsumer<byte[], byte[]> consumer = broker.consumer(CONSUMER);
        consumer.assign(partitions);
        assertOnePerPartition(EmbeddedKaas.consume(consumer, partitionCount, EmbeddedKaas.DEFAULT_TIMEOUT),
                partitions, "before-");
        FetchSessions before = broker.broker().fetchSessions();
        assertThat(before.size()).isEqualTo(1);
        // The consumer stops fetching (paused) and takes the answer to its last fetch; the broker restarts, and
        // the consumer notices its connection closed before it fetches again: its next fetch is an incremental
        // one in a session the new broker does not know. (Had it sent that fetch into the closed connection,
        // the client would have reset the session itself and sent a full fetch.)
        consumer.pause(partitions);
        await("the last fetch answered and taken").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread()
                .until(() -> {
                    boolean idle = before.fetchesInProgress() == 0;
                    assertThat(consumer.poll(Duration.ofMillis(50))).isEmpty();
                    return idle;
                });
        double closedBefore = connectionsClosed(consumer);
        broker.restart();
        await("the consumer noticing the restart").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread()
                .until(() -> {
                    assertThat(consumer.poll(Duration.ofMillis(50))).isEmpty();
                    return connectionsClosed(consumer) > closedBefore;
                });
        consumer.resume(partitions);
        List<Exchange> exchanges = observe(broker.broker().fetchSessions());
        produce(broker, partitions, "after-");

        assertOnePerPartition(EmbeddedKaas.consume(consumer, partitionCount, EmbeddedKaas.DEFAULT_TIMEOUT),
                partitions, "after-");
        List<Exchange> after = snapshot(exchanges);
        assertThat(after.get(0).kind()).as("the fetch in the lost session").isEqualTo(Kind.ERROR);
        assertThat(after.get(0).error()).isEqualTo(KafkaError.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(after.get(1).kind()).as("the consumer starts over with a full fetch").isEqualTo(Kind.FULL);
        int session = after.get(1).sessionId();
        assertThat(session).as("which opens a new session").isNotZero();
        assertThat(after.subList(2, after.size())).allSatisfy(e -> assertIncremental(e, session));
    }

    /** Creating a thousand partitions' directories and files can take longer than the fixture's admin allows. */
    private static void createLargeTopic(EmbeddedKaas broker, String topic, int partitions) throws Exception {
        Duration patience = Duration.ofMinutes(3);
        try (Admin admin = broker.admin(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) patience.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) patience.toMillis()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all()
                    .get(patience.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static double connectionsClosed(KafkaConsumer<?, ?> consumer) {
        return CompressionIT.metric(consumer.metrics(), "consumer-metrics", "connection-close-total");
    }

    static void assertIncremental(Exchange e, int session) {
        assertThat(e.kind()).isEqualTo(Kind.INCREMENTAL);
        assertThat(e.sessionId()).isEqualTo(session);
        assertThat(e.error()).isEqualTo(KafkaError.NONE);
    }

    /** How many exchanges at the end of {@code exchanges} named no partition, either way. */
    private static int trailingEmpty(List<Exchange> exchanges) {
        int n = 0;
        for (int i = exchanges.size() - 1; i >= 0; i--) {
            Exchange e = exchanges.get(i);
            if (e.requestedPartitions() != 0 || e.answeredPartitions() != 0) {
                break;
            }
            n++;
        }
        return n;
    }

    static List<Exchange> observe(FetchSessions sessions) {
        List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
        sessions.observe(exchanges::add);
        return exchanges;
    }

    static List<Exchange> snapshot(List<Exchange> exchanges) {
        synchronized (exchanges) {
            return List.copyOf(exchanges);
        }
    }

    static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    /** One record into each partition, valued {@code prefix + partition}. */
    static void produce(EmbeddedKaas broker, List<TopicPartition> partitions, String prefix) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(broker.producerConfig(Map.of()))) {
            for (TopicPartition tp : partitions) {
                producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null,
                        (prefix + tp.partition()).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    /** Exactly one record from each partition, the one {@link #produce} wrote there. */
    static void assertOnePerPartition(List<ConsumerRecord<byte[], byte[]>> records, List<TopicPartition> partitions,
                                      String prefix) {
        assertThat(records).map(r -> new TopicPartition(r.topic(), r.partition()) + "=" + new String(r.value(),
                        StandardCharsets.UTF_8))
                .containsExactlyInAnyOrderElementsOf(partitions.stream().map(tp -> tp + "=" + prefix + tp.partition())
                        .toList());
    }

    static void pollUntil(KafkaConsumer<byte[], byte[]> consumer, java.util.concurrent.Callable<Boolean> done) {
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1)).until(() -> {
                    assertThat(consumer.poll(Duration.ofMillis(50))).as("no record arrives while nothing is produced")
                            .isEmpty();
                    return done.call();
                });
    }
}
