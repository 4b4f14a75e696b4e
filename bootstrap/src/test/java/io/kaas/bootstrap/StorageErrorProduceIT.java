package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ProduceUseCase.Command;
import io.kaas.application.port.in.ProduceUseCase.PartitionRecords;
import io.kaas.application.port.in.ProduceUseCase.PartitionResult;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A failing fsync and a full disk reach the producer as KAFKA_STORAGE_ERROR for the partition they
 * hit, while other partitions keep taking writes. Real fsync failures and ENOSPC cannot be
 * provoked on the machine's disk, so this wires the produce path (ProduceService, TopicService,
 * DiskLogEngine) as the broker does, on the simulated filesystem.
 */
class StorageErrorProduceIT {
    private final ManualClock clock = new ManualClock();
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final SimulatedFilesystem sim = new SimulatedFilesystem(3);
    private final ArrayDeque<Runnable> ioQueue = new ArrayDeque<>();
    private final Executor io = ioQueue::add; // the committer runs when the test drains the queue
    private final BrokerSettings settings = new BrokerSettings(0, 1, true);
    private final TopicPartition p0 = new TopicPartition("orders", 0);
    private final TopicPartition p1 = new TopicPartition("orders", 1);
    private TopicService topics;
    private ProduceService produce;

    @BeforeEach
    void wireTheProducePath() {
        DiskLogEngine engine = new DiskLogEngine(new DiskLogEngine.Settings(Path.of("/data"), 0, 30_000),
                sim, new JacksonCodec(), io, scheduler, clock, tp -> { });
        topics = new TopicService(new InMemoryTopicStore(), engine, settings, BrokerConfigs.of(List.of(
                BrokerConfigs.Entry.ofDefault("log.flush.interval.messages", "1", ConfigType.LONG, "fsync every append"))),
                UUID::randomUUID);
        topics.start();
        assertThat(topics.create(new TopicAdminUseCase.CreateCommand("orders", 2, TopicAdminUseCase.DEFAULT, Map.of(),
                Map.of(), false)).error()).isEqualTo(KafkaError.NONE);
        produce = new ProduceService(topics, clock, scheduler);
    }

    private static ByteBuffer batch(String value, int size) {
        byte[] bytes = new byte[size];
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(text, 0, bytes, 0, Math.min(text.length, size));
        return MemoryRecords.withRecords(CompressionType.NONE, new SimpleRecord(1_700_000_000_000L, null, bytes)).buffer();
    }

    /** Produces with acks=-1, lets the committer run, and returns the per-partition results. */
    private List<PartitionResult> produceAll(PartitionRecords... partitions) {
        CompletableFuture<List<PartitionResult>> results =
                produce.produce(new Command((short) -1, 30_000, List.of(partitions))).toCompletableFuture();
        while (!ioQueue.isEmpty()) {
            ioQueue.poll().run();
        }
        assertThat(results).isDone();
        return results.join();
    }

    @Test
    void aFailedFsyncIsAStorageErrorForItsPartitionOnly() {
        assertThat(produceAll(new PartitionRecords(p0, batch("a", 10)))).extracting(PartitionResult::error)
                .containsExactly(KafkaError.NONE);
        sim.failNextFsyncs(1);

        List<PartitionResult> failed = produceAll(new PartitionRecords(p0, batch("b", 10)));
        List<PartitionResult> mixed = produceAll(new PartitionRecords(p0, batch("c", 10)),
                new PartitionRecords(p1, batch("d", 10)));

        assertThat(failed).extracting(PartitionResult::error).containsExactly(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(mixed).extracting(PartitionResult::partition, PartitionResult::error)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(p0, KafkaError.KAFKA_STORAGE_ERROR),
                        org.assertj.core.groups.Tuple.tuple(p1, KafkaError.NONE));
        assertThat(mixed.get(1).baseOffset()).isZero();
        assertThat(produceAll(new PartitionRecords(p1, batch("e", 10))).get(0).baseOffset()).isEqualTo(1);
    }

    @Test
    void aFullDiskIsAStorageErrorAndTheNextWriteContinuesTheOffsets() {
        assertThat(produceAll(new PartitionRecords(p1, batch("a", 10))).get(0).baseOffset()).isZero();
        sim.setCapacityBytes(sim.usedBytes() + 200);

        List<PartitionResult> full = produceAll(new PartitionRecords(p1, batch("too big for what is left", 4000)));
        List<PartitionResult> small = produceAll(new PartitionRecords(p0, batch("fits", 5)));

        assertThat(full).extracting(PartitionResult::error).containsExactly(KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(small).extracting(PartitionResult::error).containsExactly(KafkaError.NONE);
        sim.setCapacityBytes(Long.MAX_VALUE);
        List<PartitionResult> after = produceAll(new PartitionRecords(p1, batch("b", 4000)));
        assertThat(after.get(0).error()).isEqualTo(KafkaError.NONE);
        assertThat(after.get(0).baseOffset()).isEqualTo(1); // the refused batch left no trace
        assertThat(topics.log(p1).orElseThrow().read(0, 1 << 20, true).sizeInBytes())
                .isEqualTo(batch("a", 10).remaining() + batch("b", 4000).remaining());
    }
}
