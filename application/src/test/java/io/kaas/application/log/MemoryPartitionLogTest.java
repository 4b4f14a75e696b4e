package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The memory log answers timestamp lookups as the disk log does. */
class MemoryPartitionLogTest {

    /** A v2 batch header with {@code records} records and opaque filler (the log never decodes records). */
    private static ByteBuffer batch(int records, long maxTimestamp) {
        ByteBuffer b = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE + records);
        b.putLong(0).putInt(b.capacity() - RecordBatchHeader.LOG_OVERHEAD).putInt(-1).put(RecordBatchHeader.MAGIC_V2)
                .putInt(0).putShort((short) 0).putInt(records - 1).putLong(maxTimestamp).putLong(maxTimestamp)
                .putLong(-1).putShort((short) -1).putInt(-1).putInt(records);
        return b.flip();
    }

    @Test
    void aTimestampLookupNeverAnswersBelowTheLogStart() {
        MemoryPartitionLog log = new MemoryPartitionLog(new TopicPartition("t", 0), tp -> { }, LogConfig.DEFAULTS);
        log.append(batch(5, 100), 0);  // offsets 0..4
        log.append(batch(5, 200), 0);  // offsets 5..9

        assertThat(log.deleteRecordsBefore(3)).isEqualTo(KafkaError.NONE);

        assertThat(log.offsetForTimestamp(50)).contains(new TimestampOffset(100, 3));
        assertThat(log.offsetForTimestamp(150)).contains(new TimestampOffset(200, 5));
        assertThat(log.offsetForTimestamp(250)).isEmpty();
    }
}
