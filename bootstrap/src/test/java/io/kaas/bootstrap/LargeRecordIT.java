package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The broker's message.max.bytes (1 MiB + 12 by default) against records near and over it. */
class LargeRecordIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void aRecordOfNineHundredKilobytesRoundTrips() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("large");
        kaas.createTopic(topic, 1);
        byte[] value = randomBytes(900 * 1024, 1);

        RecordMetadata metadata = kaas.producer().send(new ProducerRecord<>(topic, 0, null, value)).get();
        assertThat(metadata.offset()).isZero();
        assertThat(metadata.serializedValueSize()).isEqualTo(value.length);

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        List<ConsumerRecord<byte[], byte[]>> received = EmbeddedKaas.consume(consumer, 1, Duration.ofSeconds(20));
        assertThat(received).singleElement().satisfies(r -> assertThat(r.value()).isEqualTo(value));
    }

    @Test
    void aTwoMegabyteRecordIsRefusedByTheProducerWithDefaultSettings() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("too-large-client");
        kaas.createTopic(topic, 1);

        assertThatThrownBy(() -> kaas.producer().send(new ProducerRecord<>(topic, 0, null, randomBytes(2 << 20, 2))).get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("max.request.size");
    }

    @Test
    void aTwoMegabyteRecordIsRefusedByTheBrokerWhenTheProducerWouldSendIt() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("too-large-broker");
        kaas.createTopic(topic, 1);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 3 << 20,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 16 << 20));

        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, 0, null, randomBytes(2 << 20, 3))).get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RecordTooLargeException.class)
                // The broker's own message, carried in the produce response: not the producer's size check.
                .hasMessageContaining("exceeds the maximum configured value of 1048588")
                .message().doesNotContain("max.request.size");

        // Nothing was appended, and the partition still takes records (the producer is not wedged).
        RecordMetadata next = producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1, 2, 3})).get();
        assertThat(next.offset()).isZero();
    }

    @Test
    void theBrokerAnswersAnOversizedBatchWithMessageTooLarge() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("too-large-raw");
        kaas.createTopic(topic, 1);
        MemoryRecords batch = MemoryRecords.withRecords(CompressionType.NONE, new SimpleRecord(randomBytes(2 << 20, 4)));
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(batch))));

        try (RawKafkaConnection connection = RawKafkaConnection.connect(kaas)) {
            ProduceResponse response = connection.send(ProduceRequest.forCurrentMagic(data).build((short) 9));
            ProduceResponseData.PartitionProduceResponse partition =
                    response.data().responses().find(topic).partitionResponses().get(0);
            assertThat(Errors.forCode(partition.errorCode())).isEqualTo(Errors.MESSAGE_TOO_LARGE);
            assertThat(partition.baseOffset()).isEqualTo(-1L);
        }
        assertThat(kaas.consumer().endOffsets(List.of(new TopicPartition(topic, 0))))
                .containsEntry(new TopicPartition(topic, 0), 0L);
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
