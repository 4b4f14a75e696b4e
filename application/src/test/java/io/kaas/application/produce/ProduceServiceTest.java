package io.kaas.application.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.fake.RecordingSpan;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.log.AppendQueue;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.log.TimestampOffset;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.ProduceUseCase.Command;
import io.kaas.application.port.in.ProduceUseCase.PartitionRecords;
import io.kaas.application.port.in.ProduceUseCase.PartitionResult;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.idempotence.VerificationGuard;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class ProduceServiceTest {
    private static final int MAX_BYTES = 200;
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final ManualScheduler scheduler = new ManualScheduler();
    private final BrokerSettings settings = new BrokerSettings(0, 1, false);

    private final TopicService topics = topicsOn(new MemoryLogEngine(tp -> { }));
    private final ProduceService produce = new ProduceService(topics, scheduler.clock(), scheduler);
    /** For acks=-1: a log whose durability the test controls. */
    private final UndurableLogEngine undurable = new UndurableLogEngine();
    private final ProduceService produceUndurable =
            new ProduceService(topicsOn(undurable), scheduler.clock(), scheduler);

    private TopicService topicsOn(LogEngine engine) {
        BrokerConfigs brokerConfigs = BrokerConfigs.of(List.of(BrokerConfigs.Entry.ofDefault("message.max.bytes",
                Integer.toString(MAX_BYTES), ConfigType.INT, "the largest batch")));
        TopicService service = new TopicService(new InMemoryTopicStore(), engine, settings, brokerConfigs,
                new SequentialTopicIds());
        service.create(new CreateCommand("t", 2, 1, Map.of(), Map.of(), false));
        return service;
    }

    private static Command command(int acks, PartitionRecords... partitions) {
        return new Command((short) acks, 30_000, List.of(partitions));
    }

    private static List<PartitionResult> done(CompletionStage<List<PartitionResult>> stage) {
        CompletableFuture<List<PartitionResult>> future = stage.toCompletableFuture();
        assertThat(future).as("answered at once").isCompleted();
        return future.join();
    }

    private PartitionResult produceOne(int acks, TopicPartition tp, ByteBuffer batch) {
        return done(produce.produce(command(acks, new PartitionRecords(tp, batch)))).get(0);
    }

    private long logEnd(TopicPartition tp) {
        return topics.log(tp).orElseThrow().offsets().logEndOffset();
    }

    @Test
    void appendsAndAnswersWithTheBaseOffset() {
        PartitionResult first = produceOne(1, P0, TestBatches.plain(3));
        PartitionResult second = produceOne(1, P0, TestBatches.plain(1));

        assertThat(first).isEqualTo(new PartitionResult(P0, KafkaError.NONE, null, 0, -1, 0));
        assertThat(second.baseOffset()).isEqualTo(3);
        assertThat(logEnd(P0)).isEqualTo(4);
    }

    @Test
    void answersEveryPartitionInRequestOrder() {
        TopicPartition unknown = new TopicPartition("nope", 0);
        List<PartitionResult> results = done(produce.produce(command(1,
                new PartitionRecords(P1, TestBatches.plain(1)),
                new PartitionRecords(unknown, TestBatches.plain(1)),
                new PartitionRecords(P0, TestBatches.plain(1)))));

        assertThat(results).extracting(PartitionResult::partition).containsExactly(P1, unknown, P0);
        assertThat(results).extracting(PartitionResult::error)
                .containsExactly(KafkaError.NONE, KafkaError.UNKNOWN_TOPIC_OR_PARTITION, KafkaError.NONE);
        assertThat(results.get(1).baseOffset()).isEqualTo(-1);
        assertThat(logEnd(P0)).isEqualTo(1);
        assertThat(logEnd(P1)).isEqualTo(1);
    }

    @Test
    void aPartitionTheTopicDoesNotHaveIsUnknown() {
        PartitionResult result = produceOne(1, new TopicPartition("t", 2), TestBatches.plain(1));
        assertThat(result.error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void aBatchOfExactlyMessageMaxBytesIsAcceptedOneByteMoreIsTooLarge() {
        PartitionResult atLimit = produceOne(1, P0, TestBatches.batch().sizeInBytes(MAX_BYTES).build());
        PartitionResult overLimit = produceOne(1, P0, TestBatches.batch().sizeInBytes(MAX_BYTES + 1).build());

        assertThat(atLimit.error()).isEqualTo(KafkaError.NONE);
        assertThat(overLimit.error()).isEqualTo(KafkaError.MESSAGE_TOO_LARGE);
        assertThat(overLimit.message()).contains("201 bytes");
        assertThat(logEnd(P0)).isEqualTo(1);
    }

    @Test
    void acksOtherThanMinusOneZeroOrOneAreRefusedForEveryPartition() {
        List<PartitionResult> results = done(produce.produce(command(2,
                new PartitionRecords(P0, TestBatches.plain(1)), new PartitionRecords(P1, TestBatches.plain(1)))));

        assertThat(results).extracting(PartitionResult::error)
                .containsExactly(KafkaError.INVALID_REQUIRED_ACKS, KafkaError.INVALID_REQUIRED_ACKS);
        assertThat(logEnd(P0)).isZero();
        assertThat(logEnd(P1)).isZero();
    }

    @Test
    void anInvalidBatchIsRefusedWithTheValidatorsError() {
        ByteBuffer corrupt = TestBatches.plain(2);
        corrupt.put(corrupt.limit() - 1, (byte) ~corrupt.get(corrupt.limit() - 1));

        PartitionResult result = produceOne(1, P0, corrupt);

        assertThat(result.error()).isEqualTo(KafkaError.CORRUPT_MESSAGE);
        assertThat(result.message()).contains("corrupt");
        assertThat(logEnd(P0)).isZero();
    }

    @Test
    void aDuplicateIsAnsweredWithTheOriginalOffsetAndNotWritten() {
        produceOne(1, P0, TestBatches.plain(2));
        PartitionResult original = produceOne(1, P0, TestBatches.idempotent(9L, (short) 0, 0, 3));
        produceOne(1, P0, TestBatches.plain(1));

        PartitionResult retry = produceOne(1, P0, TestBatches.idempotent(9L, (short) 0, 0, 3));

        assertThat(original.baseOffset()).isEqualTo(2);
        assertThat(retry.error()).isEqualTo(KafkaError.NONE);
        assertThat(retry.baseOffset()).isEqualTo(2);
        assertThat(logEnd(P0)).isEqualTo(6);
    }

    @Test
    void aSequenceRejectedByTheLogIsReported() {
        produceOne(1, P0, TestBatches.idempotent(9L, (short) 0, 0, 1));
        PartitionResult gap = produceOne(1, P0, TestBatches.idempotent(9L, (short) 0, 2, 1));
        assertThat(gap.error()).isEqualTo(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(gap.baseOffset()).isEqualTo(-1);
    }

    @Test
    void acksAllOnAnAlreadyDurableLogAnswersAtOnceWithoutATimer() {
        PartitionResult result = produceOne(-1, P0, TestBatches.plain(1));
        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void acksAllOnALogThatDoesNotSyncEveryAppendAnswersFromTheAppendQueueWithoutATimer() {
        QueuedExecutor appendThreads = new QueuedExecutor();
        undurable.appendThreads = appendThreads;
        undurable.durableAtAppend = true; // flush.messages > 1: nothing to wait for once appended
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(new Command((short) -1, 1_000, List.of(
                new PartitionRecords(P0, TestBatches.plain(1)), new PartitionRecords(P1, TestBatches.plain(1)))))
                .toCompletableFuture();

        appendThreads.runAll();

        assertThat(future.join()).extracting(PartitionResult::error).containsExactly(KafkaError.NONE, KafkaError.NONE);
        assertThat(scheduler.scheduledEver()).as("no timeout scheduled and cancelled per request").isZero();
    }

    @Test
    void acksAllTimesOutAfterTimeoutMsWhenTheBatchNeverBecomesDurable() {
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(
                new Command((short) -1, 1_500, List.of(new PartitionRecords(P0, TestBatches.plain(1))))).toCompletableFuture();
        assertThat(future).isNotDone();

        scheduler.advance(1_499);
        assertThat(future).isNotDone();

        scheduler.advance(1);
        assertThat(future).isCompleted();
        assertThat(future.join()).containsExactly(PartitionResult.failed(P0, KafkaError.REQUEST_TIMED_OUT, null));
    }

    @Test
    void theAppendRunsOnTheLogsAppendQueueAndTheAcksAllTimeoutCountsFromIt() {
        QueuedExecutor appendThreads = new QueuedExecutor();
        undurable.appendThreads = appendThreads;
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(
                new Command((short) -1, 1_000, List.of(new PartitionRecords(P0, TestBatches.plain(1))))).toCompletableFuture();

        assertThat(undurable.durable).as("nothing appended on the caller's thread").isEmpty();
        scheduler.advance(5_000);
        assertThat(future).as("no timeout while the append is queued: it still reads the request's bytes").isNotDone();

        appendThreads.runAll();
        assertThat(undurable.durable).containsKey(P0);
        scheduler.advance(999);
        assertThat(future).isNotDone();
        scheduler.advance(1);
        assertThat(future.join()).containsExactly(PartitionResult.failed(P0, KafkaError.REQUEST_TIMED_OUT, null));
    }

    @Test
    void acksAllTimeoutKeepsThePartitionsThatDidBecomeDurable() {
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(new Command((short) -1, 1_000, List.of(
                new PartitionRecords(P0, TestBatches.plain(1)), new PartitionRecords(P1, TestBatches.plain(1)))))
                .toCompletableFuture();
        undurable.durable.get(P1).complete(null);

        scheduler.advance(1_000);

        assertThat(future.join()).extracting(PartitionResult::error)
                .containsExactly(KafkaError.REQUEST_TIMED_OUT, KafkaError.NONE);
    }

    @Test
    void aTracedRequestHasOneAppendAndOneFsyncSpanForAllItsPartitionsEndedBeforeIt() {
        RecordingSpan request = new RecordingSpan("Produce");
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(new Command(null, (short) -1, 1_000,
                List.of(new PartitionRecords(P0, TestBatches.plain(1)), new PartitionRecords(P1, TestBatches.plain(1))),
                request)).toCompletableFuture();
        future.whenComplete((answer, failure) -> request.end()); // as the wire ends the request's span
        RecordingSpan append = request.children("append").get(0);
        RecordingSpan fsync = request.children("fsync").get(0);
        assertThat(append.ended()).as("both appends done").isTrue();
        assertThat(fsync.ended()).as("one partition still waits for its fsync").isFalse();

        undurable.durable.get(P0).complete(null);
        undurable.durable.get(P1).completeExceptionally(new IllegalStateException("volume gone"));

        assertThat(future.join()).extracting(PartitionResult::error)
                .containsExactly(KafkaError.NONE, KafkaError.KAFKA_STORAGE_ERROR);
        assertThat(request.children()).extracting(RecordingSpan::name).containsExactly("append", "fsync");
        assertThat(append.attributes()).containsEntry("kaas.partitions", 2L);
        assertThat(fsync.attributes()).containsEntry("kaas.partitions", 2L);
        assertThat(fsync.failure()).hasMessage("volume gone");
        assertThat(request.endOrder()).containsExactly(append, fsync, request);
    }

    @Test
    void anUntracedRequestSharesItsStepsAndAFsyncAlreadyDoneIsNoStep() {
        RecordingSpan request = new RecordingSpan("Produce");
        List<PartitionResult> answered = done(produce.produce(new Command(null, (short) -1, 1_000,
                List.of(new PartitionRecords(P0, TestBatches.plain(1))), request)));

        assertThat(answered.get(0).error()).isEqualTo(KafkaError.NONE);
        assertThat(request.children()).extracting(RecordingSpan::name)
                .as("the memory log is durable as it appends: no wait to trace").containsExactly("append");
        assertThat(StepSpan.of(TraceSpan.NONE, "append")).isSameAs(StepSpan.NONE);
        assertThat(StepSpan.NONE.start()).isSameAs(TraceSpan.NONE);
    }

    @Test
    void acksAllAnswersWhenTheBatchBecomesDurableAndCancelsTheTimer() {
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(
                new Command((short) -1, 1_000, List.of(new PartitionRecords(P0, TestBatches.plain(1))))).toCompletableFuture();
        assertThat(scheduler.pending()).isOne();

        undurable.durable.get(P0).complete(null);

        assertThat(future).isCompleted();
        assertThat(future.join().get(0).error()).isEqualTo(KafkaError.NONE);
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void acksAllReportsAStorageErrorWhenTheFlushFails() {
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(
                new Command((short) -1, 1_000, List.of(new PartitionRecords(P0, TestBatches.plain(1))))).toCompletableFuture();

        undurable.durable.get(P0).completeExceptionally(new IOException("disk gone"));

        assertThat(future.join().get(0).error()).isEqualTo(KafkaError.KAFKA_STORAGE_ERROR);
    }

    @Test
    void acksAllReportsNotLeaderWhenANewerLeaderTookThePartitionBeforeTheFlush() {
        CompletableFuture<List<PartitionResult>> future = produceUndurable.produce(
                new Command((short) -1, 1_000, List.of(new PartitionRecords(P0, TestBatches.plain(1))))).toCompletableFuture();

        undurable.durable.get(P0).completeExceptionally(
                new KafkaException(KafkaError.NOT_LEADER_OR_FOLLOWER, "taken over at leader epoch 2"));

        PartitionResult result = future.join().get(0);
        assertThat(result.error()).isEqualTo(KafkaError.NOT_LEADER_OR_FOLLOWER);
        assertThat(result.message()).contains("epoch 2");
    }

    @Test
    void acksOneDoesNotWaitForDurability() {
        PartitionResult result = done(produceUndurable.produce(
                new Command((short) 1, 1_000, List.of(new PartitionRecords(P0, TestBatches.plain(1)))))).get(0);
        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(scheduler.pending()).isZero();
    }

    /** Hands out logs that accept every append and make it durable only when the test says so. */
    private static final class UndurableLogEngine implements LogEngine {
        final Map<TopicPartition, CompletableFuture<Void>> durable = new HashMap<>();
        /** Where the logs' appends run: inline unless a test queues them. */
        Executor appendThreads = Runnable::run;
        /** Whether an append is durable at once (a log that does not fsync every append). */
        boolean durableAtAppend;

        @Override
        public PartitionLog open(Topic topic, TopicPartition partition, LogConfig config) {
            return new PartitionLog() {
                private final List<ByteBuffer> batches = new ArrayList<>();
                private final AppendQueue appendQueue = new AppendQueue(task -> appendThreads.execute(task));

                @Override
                public TopicPartition topicPartition() {
                    return partition;
                }

                @Override
                public AppendQueue appendQueue() {
                    return appendQueue;
                }

                @Override
                public AppendResult append(ByteBuffer batch, long nowMs, VerificationGuard guard) {
                    CompletableFuture<Void> flushed = durableAtAppend
                            ? CompletableFuture.completedFuture(null) : new CompletableFuture<>();
                    durable.put(partition, flushed);
                    batches.add(batch);
                    return new AppendResult.Appended(batches.size() - 1L, -1L, 0L, flushed);
                }

                @Override
                public AppendResult appendMarker(TxnMarker marker, long nowMs) {
                    throw new UnsupportedOperationException("no transactions here");
                }

                @Override
                public VerificationGuard beginVerification(long producerId, long nowMs) {
                    return VerificationGuard.NOT_REQUIRED;
                }

                @Override
                public void fence(long producerId, short epoch) {
                }

                @Override
                public List<ProducerState> producers() {
                    return List.of();
                }

                @Override
                public void expireProducers(long nowMs, long expirationMs) {
                }

                @Override
                public LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted) {
                    return LogRead.empty(offsets());
                }

                @Override
                public LogOffsets offsets() {
                    return new LogOffsets(0, batches.size(), batches.size());
                }

                @Override
                public Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records) {
                    return Optional.empty();
                }

                @Override
                public Optional<TimestampOffset> maxTimestamp() {
                    return Optional.empty();
                }

                @Override
                public int leaderEpoch() {
                    return 0;
                }

                @Override
                public KafkaError deleteRecordsBefore(long offset) {
                    return KafkaError.NONE;
                }

                @Override
                public void applyRetention(long nowMs) {
                }

                @Override
                public void updateConfig(LogConfig newConfig) {
                }

                @Override
                public long sizeInBytes() {
                    return 0;
                }
            };
        }

        @Override
        public PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch) {
            return open(topic, partition, config);
        }

        @Override
        public void relinquish(TopicPartition partition) {
        }

        @Override
        public void abandon(TopicPartition partition) {
        }

        @Override
        public void deletePartition(TopicPartition partition) {
        }

        @Override
        public List<LogDir> logDirs() {
            return List.of(new LogDir("undurable", LogDir.UNKNOWN, LogDir.UNKNOWN));
        }

        @Override
        public Optional<String> logDirOf(TopicPartition partition) {
            return Optional.empty();
        }

        @Override
        public KafkaError moveLog(TopicPartition partition, String destination, LogSwap swap) {
            return KafkaError.LOG_DIR_NOT_FOUND;
        }

        @Override
        public void close() {
        }
    }
}
