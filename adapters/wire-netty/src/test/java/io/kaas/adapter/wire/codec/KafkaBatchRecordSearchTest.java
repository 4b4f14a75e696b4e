package io.kaas.adapter.wire.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.out.BatchRecordSearch.RecordStamp;
import java.nio.ByteBuffer;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KafkaBatchRecordSearchTest {
    private static final long BASE_OFFSET = 1_000;
    private final KafkaBatchRecordSearch search = new KafkaBatchRecordSearch();

    /** Ten records at offsets 1000..1009 with timestamps 100, 110, ..., 190, except offset 1005 at 50. */
    private static ByteBuffer batch(CompressionType codec, TimestampType type, long logAppendTime) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.CURRENT_MAGIC_VALUE,
                codec, type, BASE_OFFSET, logAppendTime);
        for (int i = 0; i < 10; i++) {
            builder.append(i == 5 ? 50 : 100 + 10L * i, ("k" + i).getBytes(), ("value-" + i).repeat(20).getBytes());
        }
        return builder.build().buffer();
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void findsTheFirstRecordInOffsetOrderReachingTheTimestamp(CompressionType codec) {
        ByteBuffer batch = batch(codec, TimestampType.CREATE_TIME, RecordBatch.NO_TIMESTAMP);

        assertThat(search.firstAtOrAfter(batch, 0, 0)).contains(new RecordStamp(1_000, 100));
        assertThat(search.firstAtOrAfter(batch, 100, 0)).contains(new RecordStamp(1_000, 100));
        assertThat(search.firstAtOrAfter(batch, 101, 0)).contains(new RecordStamp(1_001, 110));
        assertThat(search.firstAtOrAfter(batch, 145, 0)).contains(new RecordStamp(1_006, 160));  // 1005's 50 is passed
        assertThat(search.firstAtOrAfter(batch, 45, 1_005)).contains(new RecordStamp(1_005, 50));
        assertThat(search.firstAtOrAfter(batch, 190, 0)).contains(new RecordStamp(1_009, 190));
        assertThat(search.firstAtOrAfter(batch, 191, 0)).isEmpty();
        assertThat(search.firstAtOrAfter(batch, 0, 1_010)).isEmpty();
        assertThat(batch.position()).as("the caller's buffer is left as it was").isZero();
    }

    @Test
    void recordsOfALogAppendTimeBatchCarryTheBatchTimestamp() {
        ByteBuffer batch = batch(CompressionType.ZSTD, TimestampType.LOG_APPEND_TIME, 5_000);

        assertThat(search.firstAtOrAfter(batch, 0, 1_003)).contains(new RecordStamp(1_003, 5_000));
        assertThat(search.firstAtOrAfter(batch, 5_000, 0)).contains(new RecordStamp(1_000, 5_000));
        assertThat(search.firstAtOrAfter(batch, 5_001, 0)).isEmpty();
    }
}
