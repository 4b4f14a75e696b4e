package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchValidatorTest {

    private static KafkaError rejection(ByteBuffer records) {
        Optional<BatchValidator.Rejection> r = BatchValidator.validateProduced(records);
        assertThat(r).as("expected a rejection").isPresent();
        return r.get().error();
    }

    @Test
    void acceptsOneValidBatch() {
        assertThat(BatchValidator.validateProduced(TestBatches.plain(3))).isEmpty();
        assertThat(BatchValidator.validateProduced(TestBatches.idempotent(7L, (short) 0, 0, 5))).isEmpty();
        assertThat(BatchValidator.validateProduced(TestBatches.batch().transactional().compression(4)
                .producer(7L, (short) 1, 10).records(2).build())).isEmpty();
    }

    @Test
    void acceptsABatchAtANonZeroPositionWithoutMovingIt() {
        ByteBuffer batch = TestBatches.plain(2);
        ByteBuffer framed = ByteBuffer.allocate(3 + batch.remaining());
        framed.position(3);
        framed.put(batch).position(3);

        assertThat(BatchValidator.validateProduced(framed)).isEmpty();
        assertThat(framed.position()).isEqualTo(3);
    }

    @Test
    void rejectsFewerBytesThanAHeader() {
        assertThat(rejection(ByteBuffer.allocate(0))).isEqualTo(KafkaError.INVALID_RECORD);
        ByteBuffer truncated = TestBatches.plain(1);
        truncated.limit(RecordBatchHeader.HEADER_SIZE - 1);
        assertThat(rejection(truncated)).isEqualTo(KafkaError.INVALID_RECORD);
    }

    @Test
    void rejectsMagicOtherThanTwo() {
        BatchValidator.Rejection r = BatchValidator.validateProduced(TestBatches.batch().magic(1).build()).orElseThrow();
        assertThat(r.error()).isEqualTo(KafkaError.INVALID_RECORD);
        assertThat(r.message()).contains("magic version 2");
    }

    @Test
    void rejectsALengthFieldBeyondTheBytesSentAsCorrupt() {
        ByteBuffer batch = TestBatches.plain(2);
        batch.limit(batch.limit() - 1);
        assertThat(rejection(batch)).isEqualTo(KafkaError.CORRUPT_MESSAGE);
    }

    @Test
    void rejectsALengthFieldShorterThanAHeaderAsCorrupt() {
        ByteBuffer batch = TestBatches.plain(2);
        batch.putInt(RecordBatchHeader.LENGTH_OFFSET, RecordBatchHeader.HEADER_SIZE - RecordBatchHeader.LOG_OVERHEAD - 1);
        assertThat(rejection(batch)).isEqualTo(KafkaError.CORRUPT_MESSAGE);
    }

    @Test
    void rejectsBytesAfterTheBatch() {
        ByteBuffer first = TestBatches.plain(1);
        ByteBuffer second = TestBatches.plain(1);
        ByteBuffer two = ByteBuffer.allocate(first.remaining() + second.remaining()).put(first).put(second).flip();

        BatchValidator.Rejection r = BatchValidator.validateProduced(two).orElseThrow();
        assertThat(r.error()).isEqualTo(KafkaError.INVALID_RECORD);
        assertThat(r.message()).contains("exactly one record batch");
    }

    @Test
    void rejectsABadCrcAsCorrupt() {
        ByteBuffer batch = TestBatches.plain(2);
        batch.put(batch.limit() - 1, (byte) (batch.get(batch.limit() - 1) + 1));

        BatchValidator.Rejection r = BatchValidator.validateProduced(batch).orElseThrow();
        assertThat(r.error()).isEqualTo(KafkaError.CORRUPT_MESSAGE);
        assertThat(r.message()).contains("corrupt");
    }

    @Test
    void rejectsACountInconsistentWithTheOffsetRange() {
        assertThat(rejection(TestBatches.batch().records(3).recordsCount(2).build())).isEqualTo(KafkaError.INVALID_RECORD);
        assertThat(rejection(TestBatches.batch().records(3).recordsCount(4).build())).isEqualTo(KafkaError.INVALID_RECORD);
        assertThat(rejection(TestBatches.batch().lastOffsetDelta(-1).recordsCount(0).sizeInBytes(80).build()))
                .isEqualTo(KafkaError.INVALID_RECORD);
    }

    @Test
    void rejectsControlBatchesFromClients() {
        BatchValidator.Rejection r = BatchValidator.validateProduced(TestBatches.batch().control().build()).orElseThrow();
        assertThat(r.error()).isEqualTo(KafkaError.INVALID_RECORD);
        assertThat(r.message()).contains("control records");
    }

    @Test
    void rejectsAProducerIdWithoutASequence() {
        ByteBuffer batch = TestBatches.batch().producer(7L, (short) 0, -1).build();
        assertThat(rejection(batch)).isEqualTo(KafkaError.INVALID_RECORD);
    }
}
