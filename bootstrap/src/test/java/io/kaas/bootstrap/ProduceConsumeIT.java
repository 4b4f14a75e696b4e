package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Records go in through a real producer and come back byte for byte through a real consumer. */
class ProduceConsumeIT {
    private static final int RECORDS = 10_000;
    private static final int PARTITIONS = 3;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void tenThousandRecordsComeBackInOrderWithKeysHeadersAndTimestamps() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("roundtrip");
        kaas.createTopic(topic, PARTITIONS);

        Random random = new Random(42);
        long baseTimestamp = 1_700_000_000_000L;
        List<List<ProducerRecord<byte[], byte[]>>> sent = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            sent.add(new ArrayList<>());
        }
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5));
        List<Future<RecordMetadata>> acks = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            int partition = random.nextInt(PARTITIONS);
            byte[] key = i % 10 == 9 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            List<Header> headers = new ArrayList<>();
            headers.add(new RecordHeader("seq", Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
            if (i % 3 == 0) {
                byte[] binary = new byte[16];
                random.nextBytes(binary);
                headers.add(new RecordHeader("bin", binary));
                headers.add(new RecordHeader("empty", new byte[0]));
                headers.add(new RecordHeader("null", null));
                headers.add(new RecordHeader("seq", new byte[] {(byte) i})); // repeated key, kept in order
            }
            // Timestamps are deliberately not monotonic: they are the producer's, not the broker's.
            long timestamp = baseTimestamp + (i * 7919L) % 100_000;
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, timestamp, key, value, headers);
            sent.get(partition).add(record);
            acks.add(producer.send(record));
        }
        producer.flush();
        long[] nextOffset = new long[PARTITIONS];
        for (Future<RecordMetadata> ack : acks) {
            RecordMetadata metadata = ack.get();
            assertThat(metadata.offset()).as("offsets are assigned in send order per partition")
                    .isEqualTo(nextOffset[metadata.partition()]++);
        }

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(topic, p)).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<ConsumerRecord<byte[], byte[]>> received = EmbeddedKaas.consume(consumer, RECORDS, Duration.ofSeconds(30));

        assertThat(received).hasSize(RECORDS);
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            List<ConsumerRecord<byte[], byte[]>> got = received.stream().filter(r -> r.partition() == partition).toList();
            List<ProducerRecord<byte[], byte[]>> expected = sent.get(p);
            assertThat(got).as("partition %d", p).hasSize(expected.size());
            assertThat(consumer.endOffsets(List.of(new TopicPartition(topic, p)))).containsValue((long) expected.size());
            for (int i = 0; i < expected.size(); i++) {
                ConsumerRecord<byte[], byte[]> actual = got.get(i);
                ProducerRecord<byte[], byte[]> want = expected.get(i);
                String where = "partition " + p + " record " + i;
                assertThat(actual.offset()).as(where).isEqualTo(i);
                assertThat(actual.key()).as(where).isEqualTo(want.key());
                assertThat(actual.value()).as(where).isEqualTo(want.value());
                assertThat(actual.timestamp()).as(where).isEqualTo(want.timestamp());
                assertThat(actual.timestampType()).as(where).isEqualTo(TimestampType.CREATE_TIME);
                assertThat(actual.leaderEpoch()).as(where).contains(0);
                assertThat(headersOf(actual.headers().toArray())).as(where).isEqualTo(headersOf(want.headers().toArray()));
            }
        }
    }

    /** Headers as comparable (key, bytes) pairs, in order. */
    private static List<String> headersOf(Header[] headers) {
        return Arrays.stream(headers).map(h -> h.key() + "=" + Arrays.toString(h.value())).toList();
    }
}
