package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Standalone disk mode end to end: a real producer writes, the broker stops cleanly and starts again
 * on the same data directory, and a consumer reads every record back byte-identical at the offsets
 * the producer was given.
 */
class DiskRestartIT {
    private static final String TOPIC = "restart-it";
    private static final int PARTITIONS = 3;

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create()
            .withEnv("KAAS_SEGMENT_BYTES", "16384"); // small segments: the records span several per partition

    private record Sent(TopicPartition partition, long offset, byte[] key, byte[] value, long timestamp, String header) {
    }

    @Test
    void aRestartedBrokerServesEveryRecordByteIdentical(EmbeddedKaas kaas) throws Exception {
        Random random = new Random(1);
        List<Sent> sent = new ArrayList<>();
        kaas.createTopic(TOPIC, PARTITIONS);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5));
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[1 + random.nextInt(600)];
            random.nextBytes(value);
            RecordHeaders headers = new RecordHeaders();
            headers.add("n", Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TOPIC, i % PARTITIONS,
                    1_700_000_000_000L + i, key, value, headers);
            records.add(record);
            acks.add(producer.send(record));
        }
        for (int i = 0; i < acks.size(); i++) {
            RecordMetadata m = acks.get(i).get(30, TimeUnit.SECONDS);
            ProducerRecord<byte[], byte[]> r = records.get(i);
            sent.add(new Sent(new TopicPartition(m.topic(), m.partition()), m.offset(), r.key(), r.value(),
                    r.timestamp(), Integer.toString(i)));
        }
        kaas.closeClients();

        kaas.restart();

        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(TOPIC, p));
        }
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read =
                EmbeddedKaas.readAll(kaas.consumer(), partitions, EmbeddedKaas.DEFAULT_TIMEOUT);

        Map<TopicPartition, Map<Long, ConsumerRecord<byte[], byte[]>>> byOffset = new HashMap<>();
        read.forEach((tp, list) -> list.forEach(r -> byOffset.computeIfAbsent(tp, k -> new HashMap<>()).put(r.offset(), r)));
        assertThat(read.values().stream().mapToInt(List::size).sum()).isEqualTo(sent.size());
        for (Sent s : sent) {
            ConsumerRecord<byte[], byte[]> r = byOffset.getOrDefault(s.partition, Map.of()).get(s.offset);
            assertThat(r).as("record at %s@%d", s.partition, s.offset).isNotNull();
            assertThat(r.key()).isEqualTo(s.key);
            assertThat(r.value()).isEqualTo(s.value);
            assertThat(r.timestamp()).isEqualTo(s.timestamp);
            assertThat(new String(r.headers().lastHeader("n").value(), StandardCharsets.UTF_8)).isEqualTo(s.header);
        }
        assertThat(kaas.dataDir().resolve(TOPIC).resolve("0").toFile().list((d, name) -> name.endsWith(".log")))
                .hasSizeGreaterThan(1); // the data spanned segment rolls
    }
}
