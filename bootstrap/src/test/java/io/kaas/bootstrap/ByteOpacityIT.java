package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker never re-encodes a batch: what a Fetch returns is the produced batch byte for byte,
 * except the two header fields the log owns — the base offset (bytes 0-7) and the partition
 * leader epoch (bytes 12-15), both outside the CRC.
 */
class ByteOpacityIT {
    private static final int BASE_OFFSET_END = 8;
    private static final int LEADER_EPOCH_START = 12;
    private static final int LEADER_EPOCH_END = 16;

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CompressionType.class, names = {"NONE", "GZIP", "ZSTD"})
    void aProducedBatchIsFetchedByteForByte(CompressionType compression) {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("opaque-" + compression.name);
        kaas.createTopic(topic, 1);
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            // A first batch, so the one under test lands at a non-zero offset and its base offset is rewritten.
            ProduceResponseData.PartitionProduceResponse warmUp = raw.produce(topic, 0, batch(compression, 1, 3), (short) 1);
            assertThat(Errors.forCode(warmUp.errorCode())).isEqualTo(Errors.NONE);

            MemoryRecords sent = batch(compression, 2, 25);
            byte[] sentBytes = bytes(sent.buffer());
            ProduceResponseData.PartitionProduceResponse produced = raw.produce(topic, 0, sent, (short) -1);
            assertThat(Errors.forCode(produced.errorCode())).isEqualTo(Errors.NONE);
            assertThat(produced.baseOffset()).isEqualTo(3);

            FetchResponseData.PartitionData fetched = raw.fetch(topic, 0, produced.baseOffset(), 1 << 20);
            assertThat(Errors.forCode(fetched.errorCode())).isEqualTo(Errors.NONE);
            assertThat(fetched.highWatermark()).isEqualTo(3 + 25);
            ByteBuffer records = ((MemoryRecords) fetched.records()).buffer();
            assertThat(records.remaining()).as("exactly the one batch").isEqualTo(sentBytes.length);
            byte[] fetchedBytes = bytes(records);

            assertThat(Arrays.copyOfRange(fetchedBytes, BASE_OFFSET_END, LEADER_EPOCH_START))
                    .as("batch length and magic").isEqualTo(Arrays.copyOfRange(sentBytes, BASE_OFFSET_END, LEADER_EPOCH_START));
            assertThat(Arrays.copyOfRange(fetchedBytes, LEADER_EPOCH_END, fetchedBytes.length))
                    .as("CRC, attributes, timestamps, producer fields and the records themselves")
                    .isEqualTo(Arrays.copyOfRange(sentBytes, LEADER_EPOCH_END, sentBytes.length));
            ByteBuffer header = ByteBuffer.wrap(fetchedBytes);
            assertThat(header.getLong(0)).as("base offset, assigned by the log").isEqualTo(3);
            assertThat(header.getInt(LEADER_EPOCH_START)).as("leader epoch, set by the log").isZero();

            MutableRecordBatch batch = MemoryRecords.readableRecords(ByteBuffer.wrap(fetchedBytes)).batches().iterator().next();
            batch.ensureValid();
            assertThat(batch.baseOffset()).isEqualTo(3);
            assertThat(batch.lastOffset()).isEqualTo(27);
            assertThat(batch.compressionType()).isEqualTo(compression);
            assertThat(batch.checksum()).isEqualTo(sent.batches().iterator().next().checksum());
            Iterator<org.apache.kafka.common.record.Record> it = batch.iterator();
            for (int i = 0; i < 25; i++) {
                org.apache.kafka.common.record.Record record = it.next();
                assertThat(record.offset()).isEqualTo(3 + i);
                assertThat(StandardCharsets.UTF_8.decode(record.value()).toString()).startsWith("batch 2 record " + i + " ");
            }
        }
    }

    /** A v2 batch built by kafka-clients, with a leader epoch of 42 and offsets from 0, as a client sends it. */
    private static MemoryRecords batch(CompressionType compression, int id, int count) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(64 * 1024), RecordBatch.MAGIC_VALUE_V2,
                compression, TimestampType.CREATE_TIME, 0L, RecordBatch.NO_TIMESTAMP, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, 42);
        Random random = new Random(id);
        for (int i = 0; i < count; i++) {
            byte[] noise = new byte[random.nextInt(40)];
            random.nextBytes(noise);
            String value = "batch " + id + " record " + i + " " + "x".repeat(random.nextInt(100));
            builder.append(1_000L * id + i, ("k" + i).getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8),
                    new Header[] {new RecordHeader("noise", noise)});
        }
        return builder.build();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
