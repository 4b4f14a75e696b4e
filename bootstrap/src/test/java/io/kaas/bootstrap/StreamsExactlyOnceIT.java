package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams 3.7 with {@code processing.guarantee=exactly_once_v2}: a word count whose
 * repartition and changelog topics Streams creates through the admin API. With the record cache
 * off, every occurrence of a word emits its new count, so exactly-once means each word's counts
 * read (read_committed) are exactly 1, 2, ..., n - no gap, no repeat - also across an application
 * restart that rebuilds its state from the changelog.
 */
class StreamsExactlyOnceIT {
    private static final String[] WORDS = {"kafka", "kaas", "stream", "exactly", "once", "count"};

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");

    @TempDir
    Path stateDirs;

    @Test
    void wordCountsAreExactAcrossARestart() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String input = EmbeddedKaas.uniqueTopicName("wc-in");
        String output = EmbeddedKaas.uniqueTopicName("wc-out");
        String appId = EmbeddedKaas.uniqueTopicName("wordcount");
        kaas.createTopics(Map.of(input, 2, output, 2));
        Map<String, Integer> expected = new TreeMap<>();
        KafkaProducer<byte[], byte[]> sentences = kaas.producer();

        send(sentences, input, 0, 60, expected);
        try (KafkaStreams first = start(kaas, appId, input, output, stateDirs.resolve("first"))) {
            awaitCounts(kaas, output, expected);
            first.close(Duration.ofSeconds(30));
        }
        try (Admin admin = kaas.admin()) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .as("Streams created its internal topics through CreateTopics")
                    .contains(appId + "-counts-changelog", appId + "-counts-repartition");
        }

        send(sentences, input, 60, 120, expected);
        // A fresh state directory: the restarted application restores its counts from the changelog.
        try (KafkaStreams second = start(kaas, appId, input, output, stateDirs.resolve("second"))) {
            awaitCounts(kaas, output, expected);
            second.close(Duration.ofSeconds(30));
        }
    }

    private static KafkaStreams start(EmbeddedKaas kaas, String appId, String input, String output, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                .groupBy((key, word) -> word)
                .count(Materialized.as("counts"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kaas.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every update reaches the output
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // Streams members do not leave the group on close: the restarted instance's rebalance waits for the old
        // members' sessions to expire, so keep them at the broker's minimum.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.start();
        return streams;
    }

    /** Sentences {@code from} until {@code to}, keyed so both partitions get some; counts what they say. */
    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int from, int to,
                             Map<String, Integer> expected) {
        for (int i = from; i < to; i++) {
            List<String> words = new ArrayList<>();
            for (int w = 0; w <= i % 4; w++) {
                words.add(WORDS[(i + w * 3) % WORDS.length]);
            }
            words.forEach(w -> expected.merge(w, 1, Integer::sum));
            producer.send(new ProducerRecord<>(topic, bytes("line-" + i), bytes(String.join(" ", words))));
        }
        producer.flush();
    }

    /** Reads the whole output (read_committed) until every word's counts run exactly 1..expected. */
    private static void awaitCounts(EmbeddedKaas kaas, String output, Map<String, Integer> expected) {
        List<TopicPartition> partitions = List.of(new TopicPartition(output, 0), new TopicPartition(output, 1));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.consumerConfig(
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")))) {
            consumer.assign(partitions);
            Map<String, List<Long>> counts = new LinkedHashMap<>();
            await().atMost(Duration.ofSeconds(90)).pollInSameThread().untilAsserted(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> counts.computeIfAbsent(
                        new String(r.key(), StandardCharsets.UTF_8), w -> new ArrayList<>())
                        .add(ByteBuffer.wrap(r.value()).getLong()));
                assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
                expected.forEach((word, n) -> assertThat(counts.get(word)).as("counts of %s", word)
                        .hasSize(n).containsExactlyElementsOf(upTo(n)));
            });
        }
    }

    private static List<Long> upTo(int n) {
        List<Long> values = new ArrayList<>(n);
        for (long v = 1; v <= n; v++) {
            values.add(v);
        }
        return values;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
