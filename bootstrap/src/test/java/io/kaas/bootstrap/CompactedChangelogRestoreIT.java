package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams 3.7 over a compacted changelog: an application materializes a KTable from a topic of
 * many updates and some deletes per key (exactly-once, so the changelog also holds transaction
 * markers); the broker's log cleaner compacts the changelog Streams created with
 * {@code cleanup.policy=compact}; a second instance with a fresh state directory restores the table
 * from that changelog alone - fewer records than were written - and holds exactly the source's last
 * value of each key.
 */
class CompactedChangelogRestoreIT {
    private static final String STORE = "latest";
    private static final int KEYS = 20;
    private static final int ROUNDS = 60;
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0", "KAAS_LOG_CLEANER_BACKOFF_MS", "100"));

    @TempDir
    Path stateDirs;

    @Test
    void aTableRestoredFromTheCompactedChangelogMatchesItsSource() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String source = EmbeddedKaas.uniqueTopicName("table-src");
        String appId = EmbeddedKaas.uniqueTopicName("table-app");
        String changelog = appId + "-" + STORE + "-changelog";
        kaas.createTopic(source, 1);
        Map<String, String> expected = new TreeMap<>();

        long written;
        try (KafkaStreams first = start(kaas.bootstrapServers(), appId, source, stateDirs.resolve("first"),
                new AtomicLong())) {
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
                for (int round = 0; round < ROUNDS; round++) {
                    for (int k = 0; k < KEYS; k++) {
                        boolean delete = k % 5 == 0 && round == ROUNDS - 1; // the last word on every fifth key
                        String value = delete ? null : "v" + round + "-" + "x".repeat(40);
                        send(producer, source, "key-" + k, value, expected);
                    }
                }
                // Other keys after them: the changelog's segments with the keys' updates close, so they can be cleaned.
                for (int p = 0; p < 200; p++) {
                    send(producer, source, "pad-" + p, "p".repeat(60), expected);
                }
            }
            awaitStore(first, expected);
            // the store is updated before its changelog records are sent and committed: wait for the changelog too
            await("the changelog got every update").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                    .until(() -> changelogEnd(first) >= (long) KEYS * ROUNDS);
            written = changelogEnd(first);
            first.close(Duration.ofSeconds(30));
        }

        await("the changelog compacted: one record per key (deletes still as tombstones)").atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> keyedRecords(kaas, changelog, "key-") <= KEYS);

        AtomicLong restored = new AtomicLong();
        try (KafkaStreams second = start(kaas.bootstrapServers(), appId, source, stateDirs.resolve("second"),
                restored)) {
            awaitStore(second, expected);
            assertThat(restored.get()).as("records restored from the compacted changelog")
                    .isPositive().isLessThan(written);
            second.close(Duration.ofSeconds(30));
        }
    }

    /** The table of {@code source} in store {@link #STORE}, its changelog compacted with tiny segments. */
    private static KafkaStreams start(String bootstrapServers, String appId, String source, Path stateDir,
                                      AtomicLong restored) {
        StreamsBuilder builder = new StreamsBuilder();
        Map<String, String> changelogConfig = Map.of("segment.bytes", "16384", "min.cleanable.dirty.ratio", "0.01",
                "delete.retention.ms", "86400000");
        builder.table(source, Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(STORE)
                        .withLoggingEnabled(changelogConfig));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every update reaches the changelog
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        // batches well below segment.bytes, which refuses larger ones
        props.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 4096);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long restored) {
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                restored.addAndGet(totalRestored);
            }
        });
        streams.start();
        return streams;
    }

    /** Waits until the running application's store holds {@code expected}. */
    private static void awaitStore(KafkaStreams streams, Map<String, String> expected) {
        await("the store holds the source's last value of each key").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> contents(streams).equals(expected));
    }

    /** The end offset of the store's changelog, as the running application knows it. */
    private static long changelogEnd(KafkaStreams streams) {
        return streams.allLocalStorePartitionLags().get(STORE).values().stream()
                .mapToLong(lag -> lag.endOffsetPosition()).sum();
    }

    private static Map<String, String> contents(KafkaStreams streams) {
        ReadOnlyKeyValueStore<String, String> store = streams.store(StoreQueryParameters.fromNameAndType(STORE,
                QueryableStoreTypes.keyValueStore()));
        Map<String, String> all = new TreeMap<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            it.forEachRemaining((KeyValue<String, String> kv) -> all.put(kv.key, kv.value));
        }
        return all;
    }

    /** Records of the changelog (committed) whose key starts with {@code prefix}, tombstones included. */
    private static long keyedRecords(EmbeddedKaas kaas, String changelog, String prefix) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.consumerConfig(
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")))) {
            TopicPartition tp = new TopicPartition(changelog, 0);
            List<ConsumerRecord<byte[], byte[]>> all = EmbeddedKaas.readAll(consumer, List.of(tp), Duration.ofSeconds(15))
                    .get(tp);
            return all.stream().filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(prefix)).count();
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, String value,
                             Map<String, String> expected) {
        producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
        if (value == null) {
            expected.remove(key);
        } else {
            expected.put(key, value);
        }
    }
}
