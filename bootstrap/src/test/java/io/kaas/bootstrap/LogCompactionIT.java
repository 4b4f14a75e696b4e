package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Log compaction end to end: real producers write many updates to few keys of a compacted topic
 * with tiny segments; the broker's log cleaner compacts the closed segments in the background, and
 * a consumer reading from the beginning then sees only the latest value of each key - also across a
 * restart, also for tombstones past {@code delete.retention.ms}, also for an aborted transaction.
 */
class LogCompactionIT {
    private static final int KEYS = 10;
    private static final Duration CLEANED = Duration.ofSeconds(40);
    private static EmbeddedKaas kaas;

    @BeforeAll
    static void start() {
        kaas = EmbeddedKaas.inTempDir(Map.of("KAAS_LOG_CLEANER_BACKOFF_MS", "50")).start();
    }

    @AfterAll
    static void stop() {
        kaas.close();
    }

    /** Producer batches well below {@code segment.bytes}, which refuses larger ones. */
    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 2048));
        config.putAll(overrides);
        return kaas.producer(config);
    }

    private static String compactedTopic(String prefix, Map<String, String> extra) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName(prefix);
        Map<String, String> configs = new HashMap<>(Map.of("cleanup.policy", "compact", "segment.bytes", "8192",
                "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", "86400000"));
        configs.putAll(extra);
        kaas.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(configs))).all().get();
        return topic;
    }

    @Test
    void aConsumerFromTheBeginningSeesOnlyTheLatestValueOfEachKeyAlsoAfterARestart() throws Exception {
        String topic = compactedTopic("compacted", Map.of());
        Map<String, String> latest = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            for (int round = 0; round < 300; round++) {
                for (int k = 0; k < KEYS; k++) {
                    String value = "value-" + round + "-" + "x".repeat(20);
                    producer.send(record(topic, "key-" + k, value));
                    latest.put("key-" + k, value);
                }
            }
            pad(producer, topic, "pad-a");
        }
        long cleaningsBefore = kaas.broker().logCleanings();
        awaitCleaned(topic, latest);
        assertThat(kaas.broker().logCleanings()).as("the cleaner counted its work").isGreaterThan(cleaningsBefore);

        kaas.restart();
        assertThat(latestByKey(readAll(topic), "key-")).as("the cleaned log after a restart").isEqualTo(latest);
    }

    @Test
    void tombstonesVanishAfterDeleteRetentionMs() throws Exception {
        String topic = compactedTopic("tombstones", Map.of("delete.retention.ms", "300"));
        Map<String, String> latest = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int round = 0; round < 50; round++) {
                for (int k = 0; k < KEYS; k++) {
                    producer.send(record(topic, "key-" + k, "value-" + round));
                    latest.put("key-" + k, "value-" + round);
                }
            }
            for (int k = 0; k < KEYS; k += 2) {
                producer.send(record(topic, "key-" + k, null)); // tombstones for the even keys
                latest.remove("key-" + k);
            }
            pad(producer, topic, "pad-a");
            int[] pads = {0};
            // each poll adds dirty data, so the cleaner comes back after the tombstones' delete horizon
            Awaitility.await("the tombstones of the even keys gone").atMost(CLEANED).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        pad(producer, topic, "pad-b" + pads[0]++);
                        Map<String, String> seen = latestByKey(readAll(topic), "key-");
                        return seen.equals(latest) && countKeyed(readAll(topic), "key-") == latest.size();
                    });
        }
    }

    @Test
    void anAbortedTransactionsRecordsAreCleanedAwayAndCommittedOnesStay() throws Exception {
        String topic = compactedTopic("txn", Map.of());
        Map<String, String> latest = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> txn = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                EmbeddedKaas.uniqueTopicName("cleaner-txn")))) {
            txn.initTransactions();
            txn.beginTransaction();
            for (int k = 0; k < KEYS; k++) {
                txn.send(record(topic, "key-" + k, "committed-" + k));
                latest.put("key-" + k, "committed-" + k);
            }
            txn.commitTransaction();
            txn.beginTransaction();
            for (int k = 0; k < KEYS; k++) {
                txn.send(record(topic, "aborted-key-" + k, "aborted-" + k));
            }
            txn.flush();
            txn.abortTransaction();
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            int[] pads = {0};
            Awaitility.await("the aborted records cleaned away").atMost(CLEANED).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        pad(producer, topic, "pad-" + pads[0]++);
                        return readAll(topic).stream().noneMatch(r -> string(r.value()).startsWith("aborted"));
                    });
        }
        assertThat(latestByKey(readAll(topic), "key-")).isEqualTo(latest);
    }

    /**
     * The scenario of {@code docs/perf/compaction/Compare.java}, one record per batch so both brokers get
     * the same batches at the same offsets: after cleaning, a consumer reads exactly what it read from
     * Apache Kafka 3.7.2 (recorded in {@code compaction/apache-3.7.2-cleaned.txt}) - the same survivors at
     * the same offsets, tombstones within {@code delete.retention.ms} kept, the aborted records gone.
     */
    @Test
    void afterCleaningAConsumerReadsWhatItReadFromApache() throws Exception {
        String topic = compactedTopic("like-apache", Map.of("segment.bytes", "4096", "delete.retention.ms", "86400000"));
        Map<String, Object> oneAtATime = Map.of(ProducerConfig.LINGER_MS_CONFIG, 0,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        try (KafkaProducer<byte[], byte[]> producer = producer(oneAtATime)) {
            for (int round = 0; round < 20; round++) {
                for (int k = 0; k < KEYS; k++) {
                    producer.send(record(topic, "key-" + k, "v" + round + "-" + k)).get();
                }
            }
            for (int k = 0; k < KEYS; k += 2) {
                producer.send(record(topic, "key-" + k, null)).get();
            }
        }
        Map<String, Object> transactional = new HashMap<>(oneAtATime);
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-txn");
        try (KafkaProducer<byte[], byte[]> txn = producer(transactional)) {
            txn.initTransactions();
            txn.beginTransaction();
            for (int k = 0; k < 5; k++) {
                txn.send(record(topic, "t-" + k, "committed")).get();
            }
            txn.commitTransaction();
            txn.beginTransaction();
            for (int k = 0; k < 5; k++) {
                txn.send(record(topic, "a-" + k, "aborted")).get();
            }
            txn.send(record(topic, "key-1", "aborted-update")).get();
            txn.abortTransaction();
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(oneAtATime)) {
            for (int i = 0; i < 60; i++) {
                producer.send(record(topic, "pad-" + i, "x".repeat(40))).get();
            }
        }
        List<String> apache = Files.readAllLines(Path.of(
                LogCompactionIT.class.getResource("/compaction/apache-3.7.2-cleaned.txt").toURI()));
        List<String> expected = apache.subList(2, apache.size()); // past the comment and the start/end line
        List<String> seen = new ArrayList<>();
        Awaitility.await("the read matches Apache's").atMost(CLEANED).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    seen.clear();
                    readAll(topic).forEach(r -> seen.add(r.offset() + " " + string(r.key()) + " " + string(r.value())));
                    return seen.equals(expected);
                });
        assertThat(kaas.admin().listOffsets(Map.of(new TopicPartition(topic, 0),
                OffsetSpec.latest())).all().get().get(new TopicPartition(topic, 0))
                .offset()).as("the log end, as on Apache: " + apache.get(1)).isEqualTo(278);
    }

    @Test
    void aCompactedTopicRefusesRecordsWithoutAKeyAndDeleteRecords() throws Exception {
        String topic = compactedTopic("keyless", Map.of());
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, null, "v".getBytes(StandardCharsets.UTF_8)))
                    .get())
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidRecordException.class)
                    .hasMessageContaining("Compacted topic cannot accept message without key in topic partition "
                            + topic + "-0");
            producer.send(record(topic, "k", "v")).get();
        }
        Admin admin = kaas.admin();
        assertThatThrownBy(() -> admin.deleteRecords(Map.of(new TopicPartition(topic, 0),
                RecordsToDelete.beforeOffset(1))).all().get())
                .cause().isInstanceOf(PolicyViolationException.class);
    }

    private static void awaitCleaned(String topic, Map<String, String> latest) {
        Awaitility.await("only the latest value of each key left").atMost(CLEANED).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    List<ConsumerRecord<byte[], byte[]>> all = readAll(topic);
                    return countKeyed(all, "key-") == latest.size() && latestByKey(all, "key-").equals(latest);
                });
    }

    /**
     * Records with other keys, enough to push the ones before them out of the active segment: their values alone
     * fill more than one segment of {@code segment.bytes=8192}, however the producer batches them.
     */
    private static void pad(KafkaProducer<byte[], byte[]> producer, String topic, String prefix) throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add(producer.send(record(topic, prefix + "-" + i, "p".repeat(100))));
        }
        for (Future<RecordMetadata> f : sent) {
            f.get();
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kaas.consumerConfig(Map.of()))) {
            TopicPartition tp = new TopicPartition(topic, 0);
            return new ArrayList<>(EmbeddedKaas.readAll(consumer, List.of(tp), Duration.ofSeconds(15)).get(tp));
        }
    }

    /** The last value of each key with {@code prefix}, in offset order; a tombstone removes the key. */
    private static Map<String, String> latestByKey(List<ConsumerRecord<byte[], byte[]>> records, String prefix) {
        Map<String, String> latest = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String key = string(r.key());
            if (key.startsWith(prefix)) {
                if (r.value() == null) {
                    latest.remove(key);
                } else {
                    latest.put(key, string(r.value()));
                }
            }
        }
        return latest;
    }

    private static long countKeyed(List<ConsumerRecord<byte[], byte[]>> records, String prefix) {
        return records.stream().filter(r -> string(r.key()).startsWith(prefix)).count();
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, String value) {
        return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String string(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
