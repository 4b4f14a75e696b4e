package io.kaas.application.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.HeaderStampedRecords;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ListOffsetsUseCase.Result;
import io.kaas.application.port.in.ListOffsetsUseCase;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ListOffsetsServiceTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final TopicService topics = new TopicService(new InMemoryTopicStore(), new MemoryLogEngine(tp -> { }),
            new BrokerSettings(0, 1, false), BrokerConfigs.of(List.of()),
            new SequentialTopicIds());
    private final QueuedExecutor io = new QueuedExecutor();
    private final ListOffsetsService service = new ListOffsetsService(topics, io, new HeaderStampedRecords());

    /** Records stamped as {@link HeaderStampedRecords} reads them: base timestamp + index, the last one the max. */
    @BeforeEach
    void topicWithThreeBatches() {
        topics.create(new CreateCommand("t", 1, 1, Map.of(), Map.of(), false));
        var log = topics.log(TP).orElseThrow();
        log.append(TestBatches.batch().records(2).timestamps(1_000, 1_100).build(), 0L); // 0..1: 1_000, 1_100
        log.append(TestBatches.batch().records(3).timestamps(1_200, 1_500).build(), 0L); // 2..4: 1_200, 1_201, 1_500
        log.append(TestBatches.batch().records(1).timestamps(1_300, 1_300).build(), 0L); // 5
    }

    private Result list(long timestamp) {
        return answered(service.listOffset(TP, timestamp, false));
    }

    /** The answer, once the I/O executor has run any lookup that reads the log. */
    private Result answered(CompletionStage<Result> answer) {
        io.runAll();
        return answer.toCompletableFuture().join();
    }

    @Test
    void sentinelsAreAnsweredAtOnceAndTimestampLookupsOnTheIoExecutor() {
        assertThat(service.listOffset(TP, ListOffsetsUseCase.LATEST, false)).isCompleted();
        CompletableFuture<Result> lookup = service.listOffset(TP, 1_200, false).toCompletableFuture();
        assertThat(lookup).as("reading the time index is file work").isNotDone();
        io.runAll();
        assertThat(lookup.join()).isEqualTo(new Result(KafkaError.NONE, 1_200, 2, 0));
    }

    @Test
    void earliestAndEarliestLocalAreTheLogStart() {
        assertThat(list(ListOffsetsUseCase.EARLIEST)).isEqualTo(new Result(KafkaError.NONE, -1, 0, 0));
        assertThat(list(ListOffsetsUseCase.EARLIEST_LOCAL)).isEqualTo(new Result(KafkaError.NONE, -1, 0, 0));
    }

    @Test
    void latestIsTheHighWatermark() {
        assertThat(list(ListOffsetsUseCase.LATEST)).isEqualTo(new Result(KafkaError.NONE, -1, 6, 0));
    }

    @Test
    void readCommittedSeesOnlyWhatIsBelowTheLastStableOffset() {
        var log = topics.log(TP).orElseThrow();
        log.append(TestBatches.batch().transactional().producer(9L, (short) 0, 0).records(2).timestamps(2_000, 2_000)
                .build(), 0L); // 6..7, open

        assertThat(answered(service.listOffset(TP, ListOffsetsUseCase.LATEST, true))).isEqualTo(new Result(KafkaError.NONE, -1, 6, 0));
        assertThat(list(ListOffsetsUseCase.LATEST)).isEqualTo(new Result(KafkaError.NONE, -1, 8, 0));
        assertThat(answered(service.listOffset(TP, 2_000, true))).as("only in the open transaction")
                .isEqualTo(new Result(KafkaError.NONE, -1, -1, -1));
        assertThat(list(2_000)).isEqualTo(new Result(KafkaError.NONE, 2_000, 6, 0));
        assertThat(answered(service.listOffset(TP, ListOffsetsUseCase.MAX_TIMESTAMP, true))).isEqualTo(new Result(KafkaError.NONE, -1, -1, -1));
    }

    @Test
    void maxTimestampIsTheBatchHoldingTheLargestTimestamp() {
        assertThat(list(ListOffsetsUseCase.MAX_TIMESTAMP)).isEqualTo(new Result(KafkaError.NONE, 1_500, 4, 0));
    }

    @Test
    void aTimestampFindsTheFirstRecordReachingIt() {
        assertThat(list(1_050)).isEqualTo(new Result(KafkaError.NONE, 1_100, 1, 0));
        assertThat(list(1_101)).isEqualTo(new Result(KafkaError.NONE, 1_200, 2, 0));
        assertThat(list(1_201)).isEqualTo(new Result(KafkaError.NONE, 1_201, 3, 0));
        assertThat(list(1_202)).isEqualTo(new Result(KafkaError.NONE, 1_500, 4, 0));
    }

    @Test
    void aTimestampNeverResolvesBelowTheLogStart() {
        // DeleteRecords may move the log start into a batch (2..4 here); Apache never answers an offset below it,
        // and a consumer seeking below it would only get OFFSET_OUT_OF_RANGE.
        topics.log(TP).orElseThrow().deleteRecordsBefore(3);

        assertThat(list(1_101)).isEqualTo(new Result(KafkaError.NONE, 1_201, 3, 0));
        assertThat(list(ListOffsetsUseCase.EARLIEST).offset()).isEqualTo(3);
        assertThat(list(ListOffsetsUseCase.MAX_TIMESTAMP)).isEqualTo(new Result(KafkaError.NONE, 1_500, 4, 0));
    }

    @Test
    void aTimestampPastEveryRecordMatchesNothing() {
        assertThat(list(1_501)).isEqualTo(new Result(KafkaError.NONE, -1, -1, -1));
    }

    @Test
    void anEmptyLogAnswersMaxTimestampWithNoMatch() {
        // Apache's empty segment offers no timestamp at its base offset, which is not below the high watermark
        topics.create(new CreateCommand("empty", 1, 1, Map.of(), Map.of(), false));
        TopicPartition empty = new TopicPartition("empty", 0);
        assertThat(answered(service.listOffset(empty, ListOffsetsUseCase.MAX_TIMESTAMP, false)))
                .isEqualTo(new Result(KafkaError.NONE, -1, -1, -1));
        assertThat(answered(service.listOffset(empty, ListOffsetsUseCase.LATEST, false)).offset()).isZero();
    }

    @Test
    void anUnknownPartitionFails() {
        assertThat(answered(service.listOffset(new TopicPartition("t", 1), ListOffsetsUseCase.LATEST, false)))
                .isEqualTo(Result.failed(KafkaError.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(answered(service.listOffset(new TopicPartition("nope", 0), ListOffsetsUseCase.EARLIEST, false)).error())
                .isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void aStaleOrFutureLeaderEpochIsRefused() {
        int epoch = topics.log(TP).orElseThrow().leaderEpoch();
        assertThat(epoch).as("a standalone log's epoch").isZero();
        assertThat(answered(service.listOffset(TP, ListOffsetsUseCase.LATEST, false, epoch + 1)).error())
                .isEqualTo(KafkaError.UNKNOWN_LEADER_EPOCH);
        assertThat(answered(service.listOffset(TP, ListOffsetsUseCase.LATEST, false, -2)).error()) // -1 would name no epoch
                .isEqualTo(KafkaError.FENCED_LEADER_EPOCH);
        assertThat(answered(service.listOffset(TP, ListOffsetsUseCase.LATEST, false, epoch)).error()).isEqualTo(KafkaError.NONE);
    }
}
