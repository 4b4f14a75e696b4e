package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ListOffsets through the consumer and the admin client, over records of known timestamps. */
class OffsetsForTimesIT {
    /** One record per batch, in offset order; timestamps rise, except the one at offset 3. */
    private static final long[] TIMESTAMPS = {10_000L, 20_000L, 30_000L, 25_000L, 40_000L};

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    private static String topic;
    private static TopicPartition written;
    private static TopicPartition empty;

    @BeforeAll
    static void produceOneBatchPerRecord() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        topic = EmbeddedKaas.uniqueTopicName("times");
        kaas.createTopic(topic, 2);
        written = new TopicPartition(topic, 0);
        empty = new TopicPartition(topic, 1);
        KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        for (int i = 0; i < TIMESTAMPS.length; i++) {
            // get() before the next send: each record is its own batch, so batch timestamps are record timestamps.
            assertThat(producer.send(new ProducerRecord<>(topic, 0, TIMESTAMPS[i], null, new byte[] {(byte) i})).get()
                    .offset()).isEqualTo(i);
        }
    }

    @Test
    void offsetsForTimesFindsTheFirstRecordAtOrAfterTheTimestamp() {
        KafkaConsumer<byte[], byte[]> consumer = KAAS.kaas().consumer();

        assertThat(lookup(consumer, 5_000L)).isEqualTo(new Found(0, 10_000L));      // before all
        assertThat(lookup(consumer, 10_000L)).isEqualTo(new Found(0, 10_000L));     // the first exactly
        assertThat(lookup(consumer, 20_000L)).isEqualTo(new Found(1, 20_000L));     // one exactly
        assertThat(lookup(consumer, 15_000L)).isEqualTo(new Found(1, 20_000L));     // between two
        // The first record in offset order with a timestamp >= 25_000 is offset 2 (30_000), not the 25_000 after it.
        assertThat(lookup(consumer, 25_000L)).isEqualTo(new Found(2, 30_000L));
        assertThat(lookup(consumer, 35_000L)).isEqualTo(new Found(4, 40_000L));
        assertThat(lookup(consumer, 40_000L)).isEqualTo(new Found(4, 40_000L));     // the last exactly
        assertThat(lookup(consumer, 40_001L)).isNull();                                          // after all

        Map<TopicPartition, OffsetAndTimestamp> emptyPartition = consumer.offsetsForTimes(Map.of(empty, 0L));
        assertThat(emptyPartition).containsEntry(empty, null);
    }

    @Test
    void beginningAndEndOffsets() {
        KafkaConsumer<byte[], byte[]> consumer = KAAS.kaas().consumer();

        assertThat(consumer.beginningOffsets(List.of(written, empty))).isEqualTo(Map.of(written, 0L, empty, 0L));
        assertThat(consumer.endOffsets(List.of(written, empty)))
                .isEqualTo(Map.of(written, (long) TIMESTAMPS.length, empty, 0L));
    }

    @Test
    void adminListOffsetsAgrees() throws Exception {
        Admin admin = KAAS.kaas().admin();

        assertThat(offset(admin, OffsetSpec.earliest())).isZero();
        assertThat(offset(admin, OffsetSpec.latest())).isEqualTo(TIMESTAMPS.length);
        assertThat(offset(admin, OffsetSpec.forTimestamp(15_000L))).isEqualTo(1);
        ListOffsetsResult.ListOffsetsResultInfo max =
                admin.listOffsets(Map.of(written, OffsetSpec.maxTimestamp())).partitionResult(written).get();
        assertThat(max.offset()).isEqualTo(4);
        assertThat(max.timestamp()).isEqualTo(40_000L);
        assertThat(offset(admin, OffsetSpec.forTimestamp(50_000L))).isEqualTo(-1L);
    }

    /** What offsetsForTimes found, without the leader epoch, which it also carries. */
    private record Found(long offset, long timestamp) {
    }

    private static Found lookup(KafkaConsumer<byte[], byte[]> consumer, long timestamp) {
        OffsetAndTimestamp found = consumer.offsetsForTimes(Map.of(written, timestamp)).get(written);
        if (found == null) {
            return null;
        }
        assertThat(found.leaderEpoch()).contains(0);
        return new Found(found.offset(), found.timestamp());
    }

    private static long offset(Admin admin, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(written, spec)).partitionResult(written).get().offset();
    }
}
