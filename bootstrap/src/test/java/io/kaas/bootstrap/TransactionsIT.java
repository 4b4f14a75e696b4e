package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions with the real Java clients: what a read_committed consumer sees of committed,
 * aborted and open transactions, consume-process-produce with offsets committed in the
 * transaction, fencing, and the timeout reaper.
 */
class TransactionsIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_TRANSACTION_ABORT_INTERVAL_MS", "200")
            .withEnv("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");

    @Test
    void aCommittedTransactionIsVisibleToReadCommitted() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = topic("committed", 2);
        KafkaProducer<byte[], byte[]> producer = transactional("committed");
        producer.initTransactions();

        producer.beginTransaction();
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(topic, i % 2, null, bytes("v" + i)));
        }
        producer.commitTransaction();

        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(readCommitted());
        consumer.assign(partitions);
        List<String> read = values(EmbeddedKaas.consume(consumer, 10, WAIT));
        assertThat(read).containsExactlyInAnyOrder("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
        assertThat(consumer.endOffsets(partitions)).as("five records and a COMMIT marker each")
                .containsEntry(partitions.get(0), 6L).containsEntry(partitions.get(1), 6L);
    }

    @Test
    void anAbortedTransactionIsInvisibleToReadCommittedAndVisibleToReadUncommitted() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = topic("aborted", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        KafkaProducer<byte[], byte[]> producer = transactional("aborted");
        producer.initTransactions();

        producer.beginTransaction();
        for (int i = 0; i < 5; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes("aborted-" + i)));
        }
        producer.flush();
        producer.abortTransaction();
        producer.beginTransaction();
        for (int i = 0; i < 3; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes("committed-" + i)));
        }
        producer.commitTransaction();

        KafkaConsumer<byte[], byte[]> committed = kaas.consumer(readCommitted());
        committed.assign(List.of(tp));
        assertThat(values(EmbeddedKaas.consume(committed, 3, WAIT)))
                .containsExactly("committed-0", "committed-1", "committed-2");
        assertThat(committed.poll(Duration.ofMillis(300))).isEmpty();

        KafkaConsumer<byte[], byte[]> uncommitted = kaas.consumer();
        uncommitted.assign(List.of(tp));
        assertThat(values(EmbeddedKaas.consume(uncommitted, 8, WAIT))).containsExactly("aborted-0", "aborted-1",
                "aborted-2", "aborted-3", "aborted-4", "committed-0", "committed-1", "committed-2");
    }

    @Test
    void anOpenTransactionHoldsBackReadCommittedConsumersOnly() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = topic("open", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        KafkaProducer<byte[], byte[]> producer = transactional("open");
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, null, bytes("pending")));
        producer.flush();

        KafkaConsumer<byte[], byte[]> committed = kaas.consumer(readCommitted());
        committed.assign(List.of(tp));
        KafkaConsumer<byte[], byte[]> uncommitted = kaas.consumer();
        uncommitted.assign(List.of(tp));
        assertThat(committed.endOffsets(List.of(tp))).as("the last stable offset").containsEntry(tp, 0L);
        assertThat(uncommitted.endOffsets(List.of(tp))).as("the high watermark").containsEntry(tp, 1L);
        assertThat(committed.poll(Duration.ofMillis(300))).isEmpty();

        producer.commitTransaction();

        assertThat(values(EmbeddedKaas.consume(committed, 1, WAIT))).containsExactly("pending");
        assertThat(committed.endOffsets(List.of(tp))).containsEntry(tp, 2L);
    }

    @Test
    void consumeProcessProduceCommitsTheOffsetsWithTheOutput() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String input = topic("cpp-in", 1);
        String output = topic("cpp-out", 1);
        String group = EmbeddedKaas.uniqueTopicName("cpp-group");
        KafkaProducer<byte[], byte[]> plain = kaas.producer();
        for (int i = 0; i < 20; i++) {
            plain.send(new ProducerRecord<>(input, 0, null, bytes("in-" + i)));
        }
        plain.flush();

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(groupConsumer(group));
        consumer.subscribe(List.of(input));
        KafkaProducer<byte[], byte[]> producer = transactional("cpp");
        producer.initTransactions();
        assertThat(process(consumer, producer, output, 20, true)).isEqualTo(20);

        try (Admin admin = kaas.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            assertThat(committed.get(new TopicPartition(input, 0)).offset()).isEqualTo(20L);
        }

        // A round that aborts: its output vanishes and the group's offsets stay where they were.
        for (int i = 20; i < 25; i++) {
            plain.send(new ProducerRecord<>(input, 0, null, bytes("in-" + i)));
        }
        plain.flush();
        assertThat(process(consumer, producer, output, 5, false)).isEqualTo(5);
        try (Admin admin = kaas.admin()) {
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .get(new TopicPartition(input, 0)).offset()).isEqualTo(20L);
        }

        KafkaConsumer<byte[], byte[]> reader = kaas.consumer(readCommitted());
        reader.assign(List.of(new TopicPartition(output, 0)));
        List<String> out = values(EmbeddedKaas.consume(reader, 20, WAIT));
        assertThat(reader.poll(Duration.ofMillis(300))).isEmpty();
        assertThat(out).hasSize(20).allMatch(v -> v.startsWith("OUT-"));
    }

    @Test
    void aSecondProducerWithTheSameIdFencesTheFirst() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = topic("fenced", 1);
        KafkaProducer<byte[], byte[]> first = transactional("fenced");
        first.initTransactions();
        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, null, bytes("zombie")));
        first.flush();

        KafkaProducer<byte[], byte[]> second = transactional("fenced");
        second.initTransactions();

        assertThatThrownBy(first::commitTransaction).isInstanceOf(ProducerFencedException.class);
        second.beginTransaction();
        second.send(new ProducerRecord<>(topic, 0, null, bytes("survivor")));
        second.commitTransaction();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(readCommitted());
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        assertThat(values(EmbeddedKaas.consume(consumer, 1, WAIT))).containsExactly("survivor");
        assertThat(consumer.poll(Duration.ofMillis(300))).isEmpty();
    }

    @Test
    void theReaperAbortsAProducerThatNeverCommitsAndTheStableOffsetMovesOn() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = topic("reaped", 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        KafkaProducer<byte[], byte[]> producer = transactional("reaped", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1_000));
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < 3; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes("never-" + i)));
        }
        producer.flush();
        KafkaConsumer<byte[], byte[]> committed = kaas.consumer(readCommitted());
        committed.assign(List.of(tp));
        assertThat(committed.endOffsets(List.of(tp))).containsEntry(tp, 0L);

        await().atMost(WAIT).untilAsserted(() ->
                assertThat(committed.endOffsets(List.of(tp))).as("three records and the ABORT marker").containsEntry(tp, 4L));

        assertThat(committed.poll(Duration.ofMillis(500))).isEmpty();
        assertThat(committed.position(tp)).isEqualTo(4L);
        try (Admin admin = kaas.admin()) {
            TransactionDescription described = admin.describeTransactions(List.of("reaped")).description("reaped")
                    .get(10, TimeUnit.SECONDS);
            assertThat(described.state()).isEqualTo(TransactionState.COMPLETE_ABORT);
            assertThat(described.producerEpoch()).as("bumped: the producer is fenced").isEqualTo(1);
        }
        assertThatThrownBy(producer::commitTransaction).isInstanceOf(ProducerFencedException.class);
    }

    /** Reads what is there, writes it transformed in one transaction with the group's offsets, commits or aborts. */
    private static int process(KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer,
                               String output, int expected, boolean commit) {
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        await().atMost(WAIT).pollInSameThread().until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(batch::add);
            return batch.size() >= expected;
        });
        producer.beginTransaction();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            producer.send(new ProducerRecord<>(output, 0, null,
                    bytes("OUT-" + new String(r.value(), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT))));
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
            offsets.keySet().forEach(tp -> consumer.seek(tp, batch.get(0).offset()));
        }
        return batch.size();
    }

    private static String topic(String prefix, int partitions) {
        String name = EmbeddedKaas.uniqueTopicName(prefix);
        KAAS.kaas().createTopic(name, partitions);
        return name;
    }

    private static KafkaProducer<byte[], byte[]> transactional(String transactionalId) {
        return transactional(transactionalId, Map.of());
    }

    private static KafkaProducer<byte[], byte[]> transactional(String transactionalId, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.ACKS_CONFIG, "all"));
        config.putAll(extra);
        return KAAS.kaas().producer(config);
    }

    private static Map<String, Object> readCommitted() {
        return Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString().toLowerCase(
                Locale.ROOT));
    }

    private static Map<String, Object> groupConsumer(String group) {
        Map<String, Object> config = new HashMap<>(readCommitted());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
