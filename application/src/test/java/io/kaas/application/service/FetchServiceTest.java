package io.kaas.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.FetchUseCase.Command;
import io.kaas.application.port.in.FetchUseCase.PartitionData;
import io.kaas.application.port.in.FetchUseCase.PartitionRequest;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class FetchServiceTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);
    private static final int BATCH = TestBatches.plain(1).remaining();
    private static final int MAX_WAIT = 500;

    private final ManualScheduler scheduler = new ManualScheduler();
    private final FetchPurgatory purgatory = new FetchPurgatory();
    private final TopicService topics = new TopicService(new InMemoryTopicStore(), new MemoryLogEngine(purgatory),
            new BrokerSettings(0, 1, false), BrokerConfigs.of(List.of()),
            new SequentialTopicIds());
    private final FetchService fetch = new FetchService(topics, purgatory, scheduler);

    FetchServiceTest() {
        topics.create(new CreateCommand("t", 2, 1, Map.of(), Map.of(), false));
    }

    private void append(TopicPartition tp, ByteBuffer batch) {
        PartitionLog log = topics.log(tp).orElseThrow();
        log.append(batch, scheduler.clock().nowMs());
    }

    private static PartitionRequest from(TopicPartition tp, long offset) {
        return new PartitionRequest(tp, offset, Integer.MAX_VALUE);
    }

    private CompletableFuture<List<PartitionData>> fetch(int maxWaitMs, int minBytes, int maxBytes,
                                                         PartitionRequest... partitions) {
        return fetch.fetch(new Command(maxWaitMs, minBytes, maxBytes, false, List.of(partitions))).toCompletableFuture();
    }

    private static long firstBaseOffset(PartitionData data) {
        return RecordBatchHeader.at(data.records().inMemory().orElseThrow()).baseOffset();
    }

    @Test
    void aStaleOrFutureLeaderEpochFailsItsPartitionAtOnce() {
        append(P0, TestBatches.plain(2));
        int epoch = topics.log(P0).orElseThrow().leaderEpoch();
        assertThat(epoch).as("a standalone log's epoch").isZero();

        List<PartitionData> data = fetch(MAX_WAIT, 1, Integer.MAX_VALUE,
                new PartitionRequest(P0, 0, Integer.MAX_VALUE, epoch + 1),
                new PartitionRequest(P0, 0, Integer.MAX_VALUE, -2), // older; -1 would name no epoch
                new PartitionRequest(P0, 0, Integer.MAX_VALUE, epoch)).join();

        assertThat(data).extracting(PartitionData::error).containsExactly(KafkaError.UNKNOWN_LEADER_EPOCH,
                KafkaError.FENCED_LEADER_EPOCH, KafkaError.NONE);
        assertThat(data.get(0).sizeInBytes()).isZero();
        assertThat(data.get(2).sizeInBytes()).isEqualTo(TestBatches.plain(2).remaining());
    }

    @Test
    void answersAtOnceWhenMinBytesAreAvailable() {
        append(P0, TestBatches.plain(2));

        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 0));

        assertThat(result).isCompleted();
        PartitionData data = result.join().get(0);
        assertThat(data.error()).isEqualTo(KafkaError.NONE);
        assertThat(data.offsets()).isEqualTo(new LogOffsets(0, 2, 2));
        assertThat(data.sizeInBytes()).isEqualTo(TestBatches.plain(2).remaining());
        assertThat(purgatory.size()).isZero();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void answersAtOnceWithNothingWhenMaxWaitIsZero() {
        CompletableFuture<List<PartitionData>> result = fetch(0, 1, Integer.MAX_VALUE, from(P0, 0));

        assertThat(result).isCompleted();
        assertThat(result.join().get(0).sizeInBytes()).isZero();
        assertThat(purgatory.size()).isZero();
    }

    @Test
    void answersAtOnceWhenAPartitionFails() {
        TopicPartition unknown = new TopicPartition("nope", 0);
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE,
                from(P0, 0), from(unknown, 0));

        assertThat(result).isCompleted();
        assertThat(result.join()).extracting(PartitionData::error)
                .containsExactly(KafkaError.NONE, KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(result.join().get(1).offsets()).isEqualTo(new LogOffsets(-1, -1, -1));

        CompletableFuture<List<PartitionData>> outOfRange = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 5));
        assertThat(outOfRange).isCompleted();
        assertThat(outOfRange.join().get(0).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
    }

    @Test
    void parksUntilAnAppendBringsEnough() {
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 0));
        assertThat(result).isNotDone();
        assertThat(purgatory.size()).isOne();
        assertThat(scheduler.pending()).isOne();

        append(P0, TestBatches.plain(3));

        assertThat(result).isCompleted();
        PartitionData data = result.join().get(0);
        assertThat(data.offsets().highWatermark()).isEqualTo(3);
        assertThat(firstBaseOffset(data)).isZero();
        assertThat(purgatory.size()).isZero();
        assertThat(scheduler.pending()).as("the timer is cancelled").isZero();
    }

    @Test
    void staysParkedUntilMinBytesAccumulate() {
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 2 * BATCH, Integer.MAX_VALUE, from(P0, 0));

        append(P0, TestBatches.plain(1));
        assertThat(result).isNotDone();

        append(P0, TestBatches.plain(1));
        assertThat(result).isCompleted();
        assertThat(result.join().get(0).sizeInBytes()).isEqualTo(2 * BATCH);
    }

    @Test
    void appendsToOtherPartitionsDoNotWakeIt() {
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 0));

        append(P1, TestBatches.plain(1));

        assertThat(result).isNotDone();
        assertThat(purgatory.size()).isOne();
    }

    @Test
    void completesWithWhatIsThereExactlyWhenMaxWaitRunsOut() {
        append(P0, TestBatches.plain(1));
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 10 * BATCH, Integer.MAX_VALUE, from(P0, 0));

        scheduler.advance(MAX_WAIT - 1);
        assertThat(result).isNotDone();

        scheduler.advance(1);
        assertThat(result).isCompleted();
        PartitionData data = result.join().get(0);
        assertThat(data.error()).isEqualTo(KafkaError.NONE);
        assertThat(data.sizeInBytes()).isEqualTo(BATCH);
        assertThat(purgatory.size()).isZero();

        append(P0, TestBatches.plain(1)); // a late append finds nothing parked
        assertThat(result.join().get(0).sizeInBytes()).isEqualTo(BATCH);
    }

    @Test
    void aFetchOverSeveralPartitionsIsParkedOnceAndWokenByAnyOfThem() {
        CompletableFuture<List<PartitionData>> result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 0), from(P1, 0));
        assertThat(purgatory.size()).isOne();

        append(P1, TestBatches.plain(1));

        assertThat(result).isCompleted();
        assertThat(result.join()).extracting(PartitionData::sizeInBytes).containsExactly(0, BATCH);
        assertThat(purgatory.size()).isZero();
    }

    @Test
    void responseMaxBytesIsSharedAcrossPartitionsInRequestOrder() {
        append(P0, TestBatches.plain(1));
        append(P0, TestBatches.plain(1));
        append(P1, TestBatches.plain(1));

        List<PartitionData> oneBatch = fetch(0, 1, BATCH, from(P0, 0), from(P1, 0)).join();
        assertThat(oneBatch).extracting(PartitionData::sizeInBytes).containsExactly(BATCH, 0);
        assertThat(oneBatch).extracting(PartitionData::error).containsOnly(KafkaError.NONE);

        List<PartitionData> threeBatches = fetch(0, 1, 3 * BATCH, from(P0, 0), from(P1, 0)).join();
        assertThat(threeBatches).extracting(PartitionData::sizeInBytes).containsExactly(2 * BATCH, BATCH);
    }

    @Test
    void theFirstBatchFoundIsReturnedWholeEvenAboveMaxBytes() {
        append(P1, TestBatches.plain(1));

        List<PartitionData> data = fetch(0, 1, 1, from(P0, 0), from(P1, 0)).join();

        assertThat(data).extracting(PartitionData::sizeInBytes).containsExactly(0, BATCH);
    }

    @Test
    void partitionMaxBytesLimitsEachPartition() {
        append(P0, TestBatches.plain(1));
        append(P0, TestBatches.plain(1));

        List<PartitionData> data = fetch(0, 1, Integer.MAX_VALUE, new PartitionRequest(P0, 0, BATCH)).join();

        assertThat(data.get(0).sizeInBytes()).isEqualTo(BATCH);
    }
}
