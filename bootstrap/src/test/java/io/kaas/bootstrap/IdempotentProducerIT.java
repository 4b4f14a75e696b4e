package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The idempotent producer (the Java client's default): every record once, in order. */
class IdempotentProducerIT {
    private static final int RECORDS = 5_000;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void everyRecordIsWrittenExactlyOnceWithContiguousOffsetsAndSequences() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("idempotent");
        kaas.createTopic(topic, 1);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE,
                ProducerConfig.BATCH_SIZE_CONFIG, 4096)); // many small batches, several in flight

        for (int i = 0; i < RECORDS; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, ByteBuffer.allocate(4).putInt(i).array()));
        }
        producer.flush();

        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        List<ConsumerRecord<byte[], byte[]>> received = EmbeddedKaas.consume(consumer, RECORDS, Duration.ofSeconds(20));
        assertThat(consumer.poll(Duration.ofMillis(200))).as("nothing beyond the records sent").isEmpty();
        assertThat(consumer.endOffsets(List.of(tp))).containsEntry(tp, (long) RECORDS);

        assertThat(received).hasSize(RECORDS);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < RECORDS; i++) {
            ConsumerRecord<byte[], byte[]> r = received.get(i);
            assertThat(r.offset()).isEqualTo(i);
            int value = ByteBuffer.wrap(r.value()).getInt();
            assertThat(seen.add(value)).as("duplicate %d", value).isTrue();
            assertThat(value).isEqualTo(i);
        }

        // On the wire: batches carry one producer id, epoch 0 and sequences that continue each other.
        List<RecordBatch> batches = new ArrayList<>();
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            long offset = 0;
            while (offset < RECORDS) {
                FetchResponseData.PartitionData data = raw.fetch(topic, 0, offset, 1 << 20);
                for (RecordBatch batch : ((MemoryRecords) data.records()).batches()) {
                    if (batch.lastOffset() >= offset) {
                        batches.add(batch);
                        offset = batch.nextOffset();
                    }
                }
            }
        }
        assertThat(batches.size()).as("small batches").isGreaterThan(10);
        long producerId = batches.get(0).producerId();
        assertThat(producerId).isNotNegative();
        int nextSequence = 0;
        for (RecordBatch batch : batches) {
            assertThat(batch.producerId()).isEqualTo(producerId);
            assertThat(batch.producerEpoch()).isZero();
            assertThat(batch.baseSequence()).isEqualTo(nextSequence);
            assertThat(batch.baseSequence() + (int) (batch.lastOffset() - batch.baseOffset())).isEqualTo(batch.lastSequence());
            nextSequence = batch.lastSequence() + 1;
        }
        assertThat(nextSequence).isEqualTo(RECORDS);
    }

    @Test
    void aRetriedBatchIsAcknowledgedAgainButWrittenOnce() {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("idempotent-retry");
        kaas.createTopic(topic, 1);
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            InitProducerIdResponse init = raw.send(new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                    .setTransactionalId(null).setTransactionTimeoutMs(60_000)).build((short) 4));
            assertThat(init.error()).isEqualTo(Errors.NONE);
            long pid = init.data().producerId();
            short epoch = init.data().producerEpoch();

            MemoryRecords first = batch(pid, epoch, 0, "a", "b", "c");
            MemoryRecords second = batch(pid, epoch, 3, "d");
            ProduceResponseData.PartitionProduceResponse a = raw.produce(topic, 0, first, (short) -1);
            ProduceResponseData.PartitionProduceResponse retry = raw.produce(topic, 0, batch(pid, epoch, 0, "a", "b", "c"),
                    (short) -1);
            ProduceResponseData.PartitionProduceResponse b = raw.produce(topic, 0, second, (short) -1);
            ProduceResponseData.PartitionProduceResponse gap = raw.produce(topic, 0, batch(pid, epoch, 10, "x"), (short) -1);

            assertThat(Errors.forCode(a.errorCode())).isEqualTo(Errors.NONE);
            assertThat(a.baseOffset()).isZero();
            assertThat(Errors.forCode(retry.errorCode())).isEqualTo(Errors.NONE);
            assertThat(retry.baseOffset()).as("the duplicate is answered with the original offset").isZero();
            assertThat(Errors.forCode(b.errorCode())).isEqualTo(Errors.NONE);
            assertThat(b.baseOffset()).isEqualTo(3);
            assertThat(Errors.forCode(gap.errorCode())).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);

            FetchResponseData.PartitionData fetched = raw.fetch(topic, 0, 0, 1 << 20);
            assertThat(fetched.highWatermark()).isEqualTo(4);
            List<String> values = new ArrayList<>();
            ((MemoryRecords) fetched.records()).records().forEach(r ->
                    values.add(java.nio.charset.StandardCharsets.UTF_8.decode(r.value()).toString()));
            assertThat(values).containsExactly("a", "b", "c", "d");
        }
    }

    private static MemoryRecords batch(long pid, short epoch, int baseSequence, String... values) {
        // Current timestamps: a segment whose first record is older than segment.ms (7 days) rolls on the
        // next append, in Apache as here, and one fetch reads one segment.
        long now = System.currentTimeMillis();
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(now + i, null, values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V2, 0L, CompressionType.NONE, TimestampType.CREATE_TIME,
                pid, epoch, baseSequence, RecordBatch.NO_PARTITION_LEADER_EPOCH, false, records);
    }
}
