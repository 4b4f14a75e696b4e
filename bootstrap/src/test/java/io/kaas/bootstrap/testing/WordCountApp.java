package io.kaas.bootstrap.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.stream.IntStream;
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

/**
 * A Kafka Streams 3.7 word count with {@code processing.guarantee=exactly_once_v2}, whose repartition
 * and changelog topics Streams creates through the admin API. With the record cache off, every
 * occurrence of a word emits its new count, so exactly-once means each word's counts read
 * (read_committed) are exactly 1, 2, ..., n - no gap, no repeat.
 */
public final class WordCountApp {
    private static final String[] WORDS = {"kafka", "kaas", "stream", "exactly", "once", "count"};

    private WordCountApp() {
    }

    /** Starts the application: two stream threads, commits every 100 ms. */
    public static KafkaStreams start(String bootstrapServers, String appId, String input, String output, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                .groupBy((key, word) -> word)
                .count(Materialized.as("counts"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
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

    /** Sentences {@code from} until {@code to}, keyed so every partition gets some; counts what they say. */
    public static void send(KafkaProducer<byte[], byte[]> producer, String topic, int from, int to,
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
    public static void awaitCounts(String bootstrapServers, String output, int partitions, Map<String, Integer> expected,
                                   Duration deadline) {
        List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(output, p)).toList();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(bootstrapServers,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")))) {
            consumer.assign(all);
            Map<String, List<Long>> counts = new LinkedHashMap<>();
            await().atMost(deadline).pollInSameThread().untilAsserted(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> counts.computeIfAbsent(
                        new String(r.key(), StandardCharsets.UTF_8), w -> new ArrayList<>())
                        .add(ByteBuffer.wrap(r.value()).getLong()));
                assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
                expected.forEach((word, n) -> assertThat(counts.get(word)).as("counts of %s", word)
                        .containsExactlyElementsOf(upTo(n)));
            });
        }
    }

    private static List<Long> upTo(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(v -> (long) v).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
