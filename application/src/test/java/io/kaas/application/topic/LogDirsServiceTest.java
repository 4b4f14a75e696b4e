package io.kaas.application.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.TestBroker;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.port.in.LogDirsUseCase.LogDir;
import io.kaas.application.port.in.LogDirsUseCase.PartitionSize;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DescribeLogDirs: one directory, and the bytes each partition holds. */
class LogDirsServiceTest {
    private final TestBroker broker = new TestBroker();
    private final LogDirsService logDirs = new LogDirsService(broker.topics, broker.engine, Runnable::run);

    @Test
    void everyPartitionWithItsSizeInTheOneLogDir() {
        broker.create("b", 2);
        broker.create("a", 1);
        int size = append(new TopicPartition("b", 1), 100) + append(new TopicPartition("b", 1), 20);

        List<LogDir> dirs = logDirs.describe(null).toCompletableFuture().join();

        assertThat(dirs).singleElement().satisfies(dir -> {
            assertThat(dir.path()).isEqualTo(MemoryLogEngine.LOG_DIR);
            assertThat(dir.error()).isEqualTo(KafkaError.NONE);
            assertThat(dir.totalBytes()).as("memory has no volume").isEqualTo(-1);
            assertThat(dir.partitions()).containsExactly(
                    new PartitionSize(new TopicPartition("a", 0), 0),
                    new PartitionSize(new TopicPartition("b", 0), 0),
                    new PartitionSize(new TopicPartition("b", 1), size));
        });
    }

    @Test
    void onlyTheRequestedPartitionsThisBrokerServes() {
        broker.create("a", 2);

        List<LogDir> dirs = logDirs.describe(Set.of(new TopicPartition("a", 1), new TopicPartition("a", 7),
                new TopicPartition("missing", 0))).toCompletableFuture().join();

        assertThat(dirs.get(0).partitions()).extracting(PartitionSize::partition)
                .containsExactly(new TopicPartition("a", 1));
    }

    private int append(TopicPartition partition, int recordBytes) {
        long now = broker.clock.nowMs();
        ByteBuffer batch = TestBatches.batch(1, now, now, TestBatches.records(recordBytes));
        int size = batch.remaining();
        broker.produce.produce(new ProduceUseCase.Command((short) 1, 1000,
                List.of(new ProduceUseCase.PartitionRecords(partition, batch)))).toCompletableFuture().join();
        return size;
    }
}
