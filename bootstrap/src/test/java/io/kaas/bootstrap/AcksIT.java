package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every acks setting delivers every record; only acks=0 leaves the producer without offsets. */
class AcksIT {
    private static final int RECORDS = 2_000;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @ParameterizedTest(name = "acks={0}")
    @ValueSource(strings = {"0", "1", "all"})
    void allRecordsAreDelivered(String acks) throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("acks-" + acks);
        kaas.createTopic(topic, 2);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, acks,
                // Idempotence needs acks=all; for the others it is turned off, as an application must.
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, acks.equals("all"),
                ProducerConfig.BATCH_SIZE_CONFIG, 8192));

        List<Future<RecordMetadata>> sent = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            sent.add(producer.send(new ProducerRecord<>(topic, i % 2, null, ByteBuffer.allocate(4).putInt(i).array())));
        }
        producer.flush();
        for (int i = 0; i < RECORDS; i++) {
            RecordMetadata metadata = sent.get(i).get();
            assertThat(metadata.partition()).isEqualTo(i % 2);
            if (acks.equals("0")) {
                assertThat(metadata.hasOffset()).as("acks=0 gets no offset back").isFalse();
            } else {
                assertThat(metadata.offset()).isEqualTo(i / 2);
            }
        }

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        consumer.assign(partitions);
        List<ConsumerRecord<byte[], byte[]>> received = EmbeddedKaas.consume(consumer, RECORDS, Duration.ofSeconds(20));

        assertThat(received).hasSize(RECORDS);
        for (int p = 0; p < 2; p++) {
            int partition = p;
            List<Integer> values = received.stream().filter(r -> r.partition() == partition)
                    .map(r -> ByteBuffer.wrap(r.value()).getInt()).toList();
            List<Long> offsets = received.stream().filter(r -> r.partition() == partition)
                    .map(ConsumerRecord::offset).toList();
            assertThat(values).as("partition %d in send order", p)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, RECORDS).filter(i -> i % 2 == partition)
                            .boxed().toList());
            assertThat(offsets).containsExactlyElementsOf(java.util.stream.LongStream.range(0, RECORDS / 2).boxed().toList());
        }
        assertThat(consumer.endOffsets(partitions)).containsValues((long) RECORDS / 2, (long) RECORDS / 2);
    }
}
