package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * acks=all means fsynced: a broker process killed with SIGKILL in the middle of production, then
 * restarted on the same data directory, still has every record it acknowledged, at the offset it
 * acknowledged it at — with per-partition fsyncs and with the log journal ({@code KAAS_LOG_JOURNAL}, whose
 * restart writes the journal back into the segments).
 */
class KillNineIT {
    private static final String TOPIC = "kill9-it";
    private static final int PARTITIONS = 2;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "log journal {0}")
    @ValueSource(booleans = {false, true})
    void aKilledBrokerLosesNoAcknowledgedRecord(boolean journal) throws Exception {
        Path data = dir.resolve("data");
        Map<String, String> env = Map.of("KAAS_DEFAULT_PARTITIONS", Integer.toString(PARTITIONS),
                "KAAS_SEGMENT_BYTES", "65536", "KAAS_LOG_JOURNAL", Boolean.toString(journal));
        /** value (its sequence number) by partition and acknowledged offset */
        Map<TopicPartition, Map<Long, Integer>> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger ackCount = new AtomicInteger();
        int sentAfterKill = 0;

        try (ChildBroker broker = ChildBroker.start(data, dir.resolve("broker-1.log"), env)) {
            Map<String, Object> producerConfig = EmbeddedKaas.producerConfig(broker.bootstrapServers(), Map.of(
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 5,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000,
                    ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
                int seq = 0;
                boolean killed = false;
                // keep producing; once enough is acknowledged, kill the broker while requests are in flight
                while (!killed || sentAfterKill < 200) {
                    int n = seq++;
                    TopicPartition tp = new TopicPartition(TOPIC, n % PARTITIONS);
                    producer.send(new ProducerRecord<>(TOPIC, tp.partition(), null, value(n)), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.computeIfAbsent(tp, k -> new ConcurrentHashMap<>()).put(metadata.offset(), n);
                            ackCount.incrementAndGet();
                        }
                    });
                    if (killed) {
                        sentAfterKill++;
                    } else if (ackCount.get() >= 2_000) {
                        broker.kill9();
                        killed = true;
                    }
                    if (n < 1_500 && n % 100 == 99) {
                        producer.flush(); // a steady start; after it sends run ahead of acks, so the kill hits in-flight requests
                    }
                }
                producer.close(Duration.ZERO); // whatever was still in flight fails: never acknowledged
            }
        }
        int acked = ackCount.get();
        assertThat(acked).isGreaterThanOrEqualTo(2_000);

        try (ChildBroker restarted = ChildBroker.start(data, dir.resolve("broker-2.log"), env)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read;
            try (KafkaConsumer<byte[], byte[]> consumer =
                         new KafkaConsumer<>(EmbeddedKaas.consumerConfig(restarted.bootstrapServers(), Map.of()))) {
                read = EmbeddedKaas.readAll(consumer, partitions, EmbeddedKaas.DEFAULT_TIMEOUT);
            }

            for (TopicPartition tp : partitions) {
                Map<Long, Integer> byOffset = new HashMap<>();
                read.get(tp).forEach(r -> byOffset.put(r.offset(), ByteBuffer.wrap(r.value()).getInt()));
                Map<Long, Integer> expected = acknowledged.getOrDefault(tp, Map.of());
                assertThat(byOffset).as("every acknowledged record of %s at its offset", tp).containsAllEntriesOf(expected);
                long contiguous = read.get(tp).isEmpty() ? 0 : read.get(tp).get(read.get(tp).size() - 1).offset() + 1;
                assertThat(byOffset).as("offsets of %s are contiguous", tp).hasSize((int) contiguous);
            }
            // and it takes new writes
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(EmbeddedKaas.producerConfig(restarted.bootstrapServers(), Map.of()))) {
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        producer.send(new ProducerRecord<>(TOPIC, 0, null, value(-1))).get().offset() >= 0);
            }
        }
    }

    private static byte[] value(int n) {
        ByteBuffer b = ByteBuffer.allocate(4 + 100);
        b.putInt(n);
        return b.array();
    }
}
