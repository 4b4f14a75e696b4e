package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Compressed batches are stored as sent and decompress to the original records on the consumer. */
class CompressionIT {
    private static final int RECORDS = 2_000;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void codecRoundTripsContent(String codec) throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("compressed-" + codec);
        kaas.createTopic(topic, 1);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(
                ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024));

        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            // Compressible but not constant: a counter embedded in repeated text.
            byte[] value = (codec + " record " + i + " " + "lorem ipsum dolor sit amet ".repeat(1 + i % 7))
                    .getBytes(StandardCharsets.UTF_8);
            values.add(value);
            producer.send(new ProducerRecord<>(topic, 0, 1_000_000L + i, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                    value, List.of(new RecordHeader("codec", codec.getBytes(StandardCharsets.UTF_8)))));
        }
        producer.flush();
        double compressionRate = metric(producer.metrics(), "producer-metrics", "compression-rate-avg");
        assertThat(compressionRate).as("the producer really compressed").isGreaterThan(0.0).isLessThan(0.5);

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        List<ConsumerRecord<byte[], byte[]>> received = EmbeddedKaas.consume(consumer, RECORDS, Duration.ofSeconds(20));

        assertThat(received).hasSize(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            ConsumerRecord<byte[], byte[]> r = received.get(i);
            assertThat(r.offset()).isEqualTo(i);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(i));
            assertThat(r.value()).as("record %d", i).isEqualTo(values.get(i));
            assertThat(r.timestamp()).isEqualTo(1_000_000L + i);
            assertThat(r.headers().lastHeader("codec").value()).asString(StandardCharsets.UTF_8).isEqualTo(codec);
        }
    }

    static double metric(Map<org.apache.kafka.common.MetricName, ? extends Metric> metrics, String group, String name) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + group + "/" + name));
    }
}
