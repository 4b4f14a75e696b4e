package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonTransactionStateStore;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnSlots;
import io.kaas.domain.txn.TxnState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restart in the middle of transactions ends each one consistently: an open transaction
 * can still be committed by its producer, an abandoned one is aborted by its producer's next
 * session, one the coordinator had prepared is completed on startup, and aborted records stay
 * invisible to read_committed after the restart - clean or SIGKILL.
 */
class TransactionsRestartIT {
    private static final io.kaas.adapter.fs.JsonFiles JSON = new io.kaas.adapter.fs.JsonFiles(new io.kaas.adapter.fs.NioFilesystem(), new io.kaas.adapter.fs.JacksonCodec());

    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create();

    @TempDir
    Path dir;

    @Test
    void anOpenTransactionIsCommittedAfterTheBrokerRestarts(EmbeddedKaas broker) {
        String topic = topic(broker);
        KafkaProducer<byte[], byte[]> producer = broker.producer(transactional("open-across-restart"));
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, null, bytes("before")));
        producer.flush();

        broker.restart();
        producer.send(new ProducerRecord<>(topic, 0, null, bytes("after")));
        producer.commitTransaction();

        assertThat(readCommitted(broker, topic, 2)).containsExactly("before", "after");
    }

    @Test
    void anAbandonedTransactionIsAbortedByTheNextSessionAfterARestart(EmbeddedKaas broker) {
        String topic = topic(broker);
        KafkaProducer<byte[], byte[]> crashed = new KafkaProducer<>(broker.producerConfig(transactional("abandoned")));
        crashed.initTransactions();
        crashed.beginTransaction();
        crashed.send(new ProducerRecord<>(topic, 0, null, bytes("lost")));
        crashed.flush();
        crashed.close(Duration.ZERO); // no abort on the way out: the transaction stays open

        broker.restart();
        KafkaProducer<byte[], byte[]> next = broker.producer(transactional("abandoned"));
        next.initTransactions(); // aborts the abandoned transaction first
        next.beginTransaction();
        next.send(new ProducerRecord<>(topic, 0, null, bytes("kept")));
        next.commitTransaction();

        assertThat(readCommitted(broker, topic, 1)).containsExactly("kept");
    }

    @Test
    void aTransactionPreparedBeforeACrashIsCompletedOnStartup(EmbeddedKaas broker) throws Exception {
        String topic = topic(broker);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(broker.producerConfig(transactional("prepared")));
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, null, bytes("decided")));
        producer.flush();
        producer.close(Duration.ZERO);
        broker.stopBroker();
        // The coordinator made PrepareCommit durable, then died before placing any marker.
        JsonTransactionStateStore slots = new JsonTransactionStateStore(new DataLayout(broker.dataDir()), JSON);
        int slot = TxnSlots.slotFor("prepared");
        List<Transaction> state = slots.load(slot).stream().map(t -> t.transactionalId().equals("prepared")
                ? new Transaction(t.transactionalId(), t.producerId(), t.lastProducerId(), t.producerEpoch(),
                        t.lastProducerEpoch(), t.timeoutMs(), TxnState.PREPARE_COMMIT, t.partitions(), t.groups(),
                        t.startMs(), t.lastUpdateMs())
                : t).toList();
        assertThat(state).anyMatch(t -> t.state() == TxnState.PREPARE_COMMIT);
        slots.save(slot, state);

        broker.start();

        assertThat(readCommitted(broker, topic, 1)).containsExactly("decided");
        try (Admin admin = broker.admin()) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(admin.describeTransactions(List.of("prepared"))
                    .description("prepared").get(10, TimeUnit.SECONDS).state()).isEqualTo(TransactionState.COMPLETE_COMMIT));
        }
    }

    @Test
    void abortedRecordsStayInvisibleAfterARestart(EmbeddedKaas broker) {
        String topic = topic(broker);
        writeAbortedThenCommitted(broker.producer(transactional("index")), topic);

        broker.restart();

        assertThat(readCommitted(broker, topic, 2)).containsExactly("committed-0", "committed-1");
    }

    @Test
    void abortedRecordsStayInvisibleAfterSigkill() throws Exception {
        Path data = dir.resolve("data");
        String topic = "txn-kill9";
        try (ChildBroker child = ChildBroker.start(data, dir.resolve("broker-1.log"), Map.of())) {
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(EmbeddedKaas.producerConfig(child.bootstrapServers(), transactional("kill9")))) {
                writeAbortedThenCommitted(producer, topic);
            }
            child.kill9();
        }
        try (ChildBroker restarted = ChildBroker.start(data, dir.resolve("broker-2.log"), Map.of())) {
            Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, restarted.bootstrapServers(),
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
                assertThat(read(consumer, topic, 2)).containsExactly("committed-0", "committed-1");
            }
        }
    }

    /** Three aborted records, then two committed ones, on partition 0. */
    private static void writeAbortedThenCommitted(KafkaProducer<byte[], byte[]> producer, String topic) {
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < 3; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes("aborted-" + i)));
        }
        producer.flush();
        producer.abortTransaction();
        producer.beginTransaction();
        for (int i = 0; i < 2; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes("committed-" + i)));
        }
        producer.commitTransaction();
    }

    private static List<String> readCommitted(EmbeddedKaas broker, String topic, int expected) {
        return read(broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                IsolationLevel.READ_COMMITTED.toString().toLowerCase(Locale.ROOT))), topic, expected);
    }

    /** Everything up to the end offset, which must hold exactly {@code expected} records. */
    private static List<String> read(KafkaConsumer<byte[], byte[]> consumer, String topic, int expected) {
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<ConsumerRecord<byte[], byte[]>> records = EmbeddedKaas.consume(consumer, expected, WAIT);
        await().atMost(WAIT).pollInSameThread().until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            return consumer.position(tp) >= consumer.endOffsets(List.of(tp)).get(tp);
        });
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    private static String topic(EmbeddedKaas broker) {
        String name = EmbeddedKaas.uniqueTopicName("txn-restart");
        broker.createTopic(name, 1);
        return name;
    }

    private static Map<String, Object> transactional(String id) {
        return Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
