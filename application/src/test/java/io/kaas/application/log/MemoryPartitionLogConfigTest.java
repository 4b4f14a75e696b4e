package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The memory log's size accounting and its obedience to cleanup.policy. */
class MemoryPartitionLogConfigTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final int LARGE = MemoryPartitionLog.ARENA_BYTES / 2 + 1;

    @Test
    void sizeCountsTheBytesHeldAndDropsWhatRetentionFrees() {
        MemoryPartitionLog log = new MemoryPartitionLog(new TopicPartition("t", 0), tp -> { }, retention(true));
        int first = append(log, LARGE, NOW - 10_000);
        int second = append(log, LARGE, NOW - 10_000);
        int third = append(log, 10, NOW);
        assertThat(log.sizeInBytes()).isEqualTo((long) first + second + third);

        log.applyRetention(NOW);

        assertThat(log.offsets().logStartOffset()).isPositive();
        assertThat(log.sizeInBytes()).isLessThan((long) first + second + third);
    }

    @Test
    void aCompactOnlyPolicyDeletesNothing() {
        MemoryPartitionLog log = new MemoryPartitionLog(new TopicPartition("t", 0), tp -> { }, retention(false));
        append(log, LARGE, NOW - 10_000);
        append(log, LARGE, NOW - 10_000);
        append(log, 10, NOW);

        log.applyRetention(NOW);
        assertThat(log.offsets().logStartOffset()).isZero();

        log.updateConfig(retention(true));
        log.applyRetention(NOW);
        assertThat(log.offsets().logStartOffset()).as("the policy change applies at the next sweep").isPositive();
    }

    private static LogConfig retention(boolean delete) {
        LogConfig d = LogConfig.DEFAULTS;
        return new LogConfig(d.segmentBytes(), d.segmentMs(), 1_000, -1, d.flushIntervalMessages(), d.flushIntervalMs(),
                d.indexIntervalBytes(), delete, d.fileDeleteDelayMs());
    }

    private static int append(MemoryPartitionLog log, int recordBytes, long timestamp) {
        ByteBuffer batch = TestBatches.batch(1, timestamp, timestamp, TestBatches.records(recordBytes));
        int size = batch.remaining();
        log.append(batch, NOW);
        return size;
    }
}
