package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Apache's produce-time timestamp checks, from the two timestamps a batch header carries. */
class TimestampValidatorTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final long ANY = Long.MAX_VALUE;
    private static final short LOG_APPEND_TIME = 0x08;

    @Test
    void createTimeWithinTheLimitsPasses() {
        assertThat(check(batch(NOW - 1000, NOW + 1000), false, 1000, 1000)).isEmpty();
        assertThat(check(batch(0, Long.MAX_VALUE / 2), false, ANY, ANY)).as("defaults accept anything").isEmpty();
    }

    @Test
    void aTooOldFirstTimestampIsRefused() {
        assertThat(check(batch(NOW - 1001, NOW), false, 1000, ANY))
                .hasValueSatisfying(r -> {
                    assertThat(r.error()).isEqualTo(KafkaError.INVALID_TIMESTAMP);
                    assertThat(r.message()).isEqualTo("One or more records have been rejected due to invalid timestamp");
                });
    }

    @Test
    void aTooNewMaxTimestampIsRefused() {
        assertThat(check(batch(NOW, NOW + 1001), false, ANY, 1000)).isPresent();
        assertThat(check(batch(NOW, NOW + 1000), false, ANY, 1000)).isEmpty();
    }

    @Test
    void recordsWithoutTimestampsAreNotChecked() {
        assertThat(check(batch(-1, -1), false, 0, 0)).isEmpty();
    }

    @Test
    void aLogAppendTimeTopicIgnoresCreateTimesButRefusesProducerStampedBatches() {
        assertThat(check(batch(0, 1), true, 0, 0)).as("the broker's time replaces them").isEmpty();
        assertThat(check(batch(NOW, NOW, LOG_APPEND_TIME), true, ANY, ANY)).isPresent();
    }

    @Test
    void aCreateTimeTopicTakesALogAppendTimeBatchOnlyWithAValidTimestamp() {
        assertThat(check(batch(NOW, NOW, LOG_APPEND_TIME), false, 1000, 1000)).isEmpty();
        assertThat(check(batch(NOW, NOW + 5000, LOG_APPEND_TIME), false, 1000, 1000)).isPresent();
        assertThat(check(batch(-1, -1, LOG_APPEND_TIME), false, ANY, ANY)).isPresent();
    }

    private static ByteBuffer batch(long base, long max) {
        return batch(base, max, (short) 0);
    }

    private static ByteBuffer batch(long base, long max, short attributes) {
        return TestBatches.batch(2, base, max, attributes, TestBatches.records(8));
    }

    private static java.util.Optional<BatchValidator.Rejection> check(ByteBuffer batch, boolean logAppendTime,
                                                                       long before, long after) {
        return TimestampValidator.validate(RecordBatchHeader.at(batch), logAppendTime, before, after, NOW);
    }
}
