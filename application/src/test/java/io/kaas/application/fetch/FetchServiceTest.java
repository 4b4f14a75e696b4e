package io.kaas.application.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fake.RecordingSpan;
import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.fake.SequentialTopicIds;
import io.kaas.application.fake.WatchedLogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.FetchUseCase.Command;
import io.kaas.application.port.in.FetchUseCase.PartitionData;
import io.kaas.application.port.in.FetchUseCase.PartitionRequest;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.FetchSessionEpoch;
import io.kaas.domain.fetch.SessionKey;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Nested;
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
    private final FetchService fetch = new FetchService(topics, purgatory, scheduler, Runnable::run);

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
    void aTracedFetchReadsWithoutSpansAndParksInOne() {
        append(P0, TestBatches.plain(1));
        RecordingSpan answered = new RecordingSpan("Fetch");
        try (TraceSpan.Scope ignored = answered.activate()) {
            assertThat(fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 0))).isCompleted();
        }
        assertThat(answered.children()).as("a read is no span: it costs less than one").isEmpty();

        RecordingSpan waited = new RecordingSpan("Fetch");
        CompletableFuture<List<PartitionData>> result;
        try (TraceSpan.Scope ignored = waited.activate()) {
            result = fetch(MAX_WAIT, 1, Integer.MAX_VALUE, from(P0, 1));
        }
        append(P0, TestBatches.plain(1));

        assertThat(result).isCompleted();
        assertThat(waited.children()).extracting(RecordingSpan::name).containsExactly("parked");
        RecordingSpan parked = waited.children("parked").get(0);
        assertThat(parked.ended()).isTrue();
        assertThat(parked.attributes()).containsEntry("kaas.woken_by", "appends").containsEntry("kaas.min_bytes", 1L);
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

    /**
     * Reads counted at the log: a parked fetch reads once, when it answers, and every read runs on
     * the injected executor (a {@link QueuedExecutor}: nothing runs until the test says so).
     */
    @Nested
    class ReadsOnlyOnTheExecutor {
        private final QueuedExecutor queue = new QueuedExecutor();
        private boolean onExecutor;
        private final Executor io = task -> queue.execute(() -> {
            onExecutor = true;
            try {
                task.run();
            } finally {
                onExecutor = false;
            }
        });
        private final FetchPurgatory purgatory = new FetchPurgatory();
        private final CountingLogEngine engine = new CountingLogEngine(new MemoryLogEngine(purgatory), () -> onExecutor);
        private final TopicService topics = new TopicService(new InMemoryTopicStore(), engine,
                new BrokerSettings(0, 1, false), BrokerConfigs.of(List.of()), new SequentialTopicIds());
        private final FetchService fetch = new FetchService(topics, purgatory, scheduler, io);

        ReadsOnlyOnTheExecutor() {
            topics.create(new CreateCommand("t", 2, 1, Map.of(), Map.of(), false));
        }

        private PartitionLog log(TopicPartition tp) {
            return topics.log(tp).orElseThrow();
        }

        private CompletableFuture<List<PartitionData>> fetch(boolean readCommitted, int minBytes, PartitionRequest... partitions) {
            return fetch.fetch(new Command(MAX_WAIT, minBytes, Integer.MAX_VALUE, readCommitted, List.of(partitions)))
                    .toCompletableFuture();
        }

        /** Parks a fetch with bytes to read: its first read runs (on the executor) and finds less than {@code minBytes}. */
        private CompletableFuture<List<PartitionData>> parked(boolean readCommitted, int minBytes, PartitionRequest... partitions) {
            int before = engine.reads;
            CompletableFuture<List<PartitionData>> result = fetch(readCommitted, minBytes, partitions);
            assertThat(engine.reads).as("nothing read on the calling thread").isEqualTo(before);
            assertThat(queue.runAll()).isOne();
            assertThat(engine.reads).as("one read per partition").isEqualTo(before + partitions.length);
            assertThat(result).isNotDone();
            assertThat(purgatory.size()).isOne();
            return result;
        }

        /** Parks a fetch caught up on every partition: it neither reads nor leaves the calling thread. */
        private CompletableFuture<List<PartitionData>> caughtUp(boolean readCommitted, int minBytes, PartitionRequest... partitions) {
            int before = engine.reads;
            CompletableFuture<List<PartitionData>> result = fetch(readCommitted, minBytes, partitions);
            assertThat(queue.pending()).as("no hand-off").isZero();
            assertThat(engine.reads).as("no read").isEqualTo(before);
            assertThat(result).isNotDone();
            assertThat(purgatory.size()).isOne();
            assertThat(scheduler.pending()).as("its max-wait timer").isOne();
            return result;
        }

        private static ByteBuffer transactional(int sequence, int records) {
            return TestBatches.batch().transactional().producer(9L, (short) 0, sequence).records(records).build();
        }

        @Test
        void evenAFetchThatCanAnswerAtOnceReadsOnTheExecutor() {
            append(P0, TestBatches.plain(1));

            CompletableFuture<List<PartitionData>> result = fetch(false, 1, from(P0, 0));

            assertThat(result).isNotDone();
            assertThat(engine.reads).isZero();
            queue.runAll();
            assertThat(result).isCompleted();
            assertThat(result.join().get(0).sizeInBytes()).isEqualTo(BATCH);
            assertThat(engine.reads).isOne();
            assertThat(engine.readsOffTheExecutor).isZero();
            assertThat(purgatory.size()).isZero();
            assertThat(scheduler.pending()).isZero();
        }

        @Test
        void anAppendBelowMinBytesNeitherReadsNorAnswers() {
            CompletableFuture<List<PartitionData>> result = caughtUp(false, 2 * BATCH, from(P0, 0));

            append(P0, TestBatches.plain(1));

            assertThat(result).isNotDone();
            assertThat(queue.pending()).isZero();
            assertThat(engine.reads).isZero();
            assertThat(purgatory.size()).isOne();
        }

        @Test
        void enoughAppendedBytesAnswerWithExactlyOneReadOnTheExecutor() {
            CompletableFuture<List<PartitionData>> result = caughtUp(false, 2 * BATCH, from(P0, 0));

            append(P0, TestBatches.plain(1));
            append(P0, TestBatches.plain(1));

            assertThat(result).as("the appending thread does not read").isNotDone();
            assertThat(engine.reads).isZero();
            assertThat(queue.runAll()).isOne();
            assertThat(result).isCompleted();
            assertThat(result.join().get(0).sizeInBytes()).isEqualTo(2 * BATCH);
            assertThat(engine.reads).as("only the answering read").isOne();
            assertThat(engine.readsOffTheExecutor).isZero();
            assertThat(purgatory.size()).isZero();
            assertThat(scheduler.pending()).as("the timer is cancelled").isZero();

            append(P0, TestBatches.plain(1)); // a late append finds nothing parked
            assertThat(queue.pending()).isZero();
            assertThat(engine.reads).isOne();
        }

        @Test
        void bytesOnSeveralPartitionsAddUp() {
            CompletableFuture<List<PartitionData>> result = caughtUp(false, 2 * BATCH, from(P0, 0), from(P1, 0));

            append(P0, TestBatches.plain(1));
            assertThat(queue.pending()).isZero();
            append(P1, TestBatches.plain(1));

            queue.runAll();
            assertThat(result.join()).extracting(PartitionData::sizeInBytes).containsExactly(BATCH, BATCH);
            assertThat(engine.reads).as("one answering read per partition").isEqualTo(2);
        }

        @Test
        void maxWaitAnswersWithOneReadOnTheExecutor() {
            append(P0, TestBatches.plain(1));
            CompletableFuture<List<PartitionData>> result = parked(false, 10 * BATCH, from(P0, 0));

            scheduler.advance(MAX_WAIT);

            assertThat(result).isNotDone();
            assertThat(queue.runAll()).isOne();
            assertThat(result).isCompleted();
            assertThat(result.join().get(0).sizeInBytes()).isEqualTo(BATCH);
            assertThat(engine.reads).isEqualTo(2);
            assertThat(engine.readsOffTheExecutor).isZero();
            assertThat(purgatory.size()).isZero();
        }

        @Test
        void readCommittedWaitsForTheLastStableOffset() {
            CompletableFuture<List<PartitionData>> committed = caughtUp(true, 1, from(P0, 0));
            CompletableFuture<List<PartitionData>> uncommitted = fetch(false, 1, from(P0, 0));
            assertThat(queue.pending()).isZero();
            assertThat(engine.reads).isZero();

            log(P0).append(transactional(0, 2), 0L); // 0..1, in an open transaction

            assertThat(queue.runAll()).as("only the read_uncommitted fetch answers").isOne();
            assertThat(uncommitted.join().get(0).sizeInBytes()).isEqualTo(transactional(0, 2).remaining());
            assertThat(committed).isNotDone();

            log(P0).append(transactional(2, 1), 0L);
            assertThat(queue.pending()).isZero();
            assertThat(committed).isNotDone();

            log(P0).appendMarker(new TxnMarker(9L, (short) 0, 0, true), 0L); // commits: the LSO moves to 4

            assertThat(queue.runAll()).isOne();
            PartitionData data = committed.join().get(0);
            assertThat(data.offsets().lastStableOffset()).isEqualTo(4);
            assertThat(data.sizeInBytes()).as("both batches and the marker").isEqualTo((int) log(P0).sizeInBytes());
            assertThat(engine.reads).as("two answers").isEqualTo(2);
            assertThat(engine.readsOffTheExecutor).isZero();
        }

        @Test
        void readCommittedAnswersWhenAMarkerReleasesBytesWrittenBeforeTheFetch() {
            log(P0).append(transactional(0, 2), 0L); // open: a read_committed read would see none of it
            CompletableFuture<List<PartitionData>> committed = caughtUp(true, 1, from(P0, 0));

            log(P0).appendMarker(new TxnMarker(9L, (short) 0, 0, false), 0L); // aborts: the LSO moves over it

            assertThat(queue.runAll()).isOne();
            PartitionData data = committed.join().get(0);
            assertThat(data.sizeInBytes()).isEqualTo((int) log(P0).sizeInBytes());
            assertThat(data.abortedTransactions()).hasSize(1);
            assertThat(engine.reads).isOne();
        }

        @Test
        void aDeletedPartitionAnswersItsParkedFetchAtOnce() {
            CompletableFuture<List<PartitionData>> result = caughtUp(false, 1, from(P0, 0));

            topics.deleteByName("t");

            assertThat(queue.runAll()).isOne();
            assertThat(result).isCompleted();
            assertThat(result.join().get(0).error()).isEqualTo(KafkaError.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(purgatory.size()).isZero();
            assertThat(scheduler.pending()).isZero();
            assertThat(engine.readsOffTheExecutor).isZero();
        }

        @Test
        void anAppendPublishedWhileTheFirstReadRunsIsNotLost() {
            append(P0, TestBatches.plain(1));
            engine.after = (tp, method) -> {
                if (method.equals("read")) {
                    engine.after = (ignored, m) -> { };
                    append(P0, TestBatches.plain(1)); // after the read's snapshot, before it parks
                }
            };

            CompletableFuture<List<PartitionData>> result = fetch(false, 2 * BATCH, from(P0, 0));
            queue.runAll();

            assertThat(result).isCompleted();
            assertThat(result.join().get(0).sizeInBytes()).isEqualTo(2 * BATCH);
            assertThat(engine.reads).isEqualTo(2);
            assertThat(purgatory.size()).isZero();
            assertThat(scheduler.pending()).isZero();
        }

        @Test
        void anAppendPublishedRightAfterACaughtUpFetchLookedIsNotLostAndIsReadOnTheExecutor() {
            engine.after = (tp, method) -> {
                if (method.equals("offsets")) {
                    engine.after = (ignored, m) -> { };
                    append(P0, TestBatches.plain(1)); // after the fetch saw it caught up, before it parks
                }
            };

            CompletableFuture<List<PartitionData>> result = fetch(false, 1, from(P0, 0));

            assertThat(engine.reads).as("the calling thread does not read").isZero();
            assertThat(queue.runAll()).isOne();
            assertThat(result.join().get(0).sizeInBytes()).isEqualTo(BATCH);
            assertThat(engine.readsOffTheExecutor).isZero();
            assertThat(purgatory.size()).isZero();
            assertThat(scheduler.pending()).isZero();
        }

        @Test
        void aFetchBehindOnOnePartitionReadsAllOnTheExecutor() {
            append(P1, TestBatches.plain(1));

            CompletableFuture<List<PartitionData>> result = fetch(false, 10 * BATCH, from(P0, 0), from(P1, 0));

            assertThat(engine.reads).isZero();
            assertThat(queue.runAll()).isOne();
            assertThat(engine.reads).isEqualTo(2);
            assertThat(result).isNotDone();
            assertThat(purgatory.size()).isOne();
        }

        @Test
        void aLogStartMovedPastTheFetchOffsetAnswersAtTheNextAppend() {
            append(P0, TestBatches.plain(2));
            CompletableFuture<List<PartitionData>> result = parked(false, 10 * BATCH, from(P0, 1));
            assertThat(log(P0).deleteRecordsBefore(2)).isEqualTo(KafkaError.NONE);

            append(P0, TestBatches.plain(1));

            assertThat(queue.runAll()).isOne();
            assertThat(result.join().get(0).error()).isEqualTo(KafkaError.OFFSET_OUT_OF_RANGE);
        }

        private void append(TopicPartition tp, ByteBuffer batch) {
            log(tp).append(batch, scheduler.clock().nowMs());
        }
    }

    /** Memory logs that count their reads, and the reads made where {@code onExecutor} is false. */
    private static final class CountingLogEngine extends WatchedLogEngine {
        private final BooleanSupplier onExecutor;
        int reads;
        int readsOffTheExecutor;
        /** Runs after each call a log answered, with its partition and the method's name. */
        BiConsumer<TopicPartition, String> after = (tp, method) -> { };

        CountingLogEngine(MemoryLogEngine delegate, BooleanSupplier onExecutor) {
            super(delegate);
            this.onExecutor = onExecutor;
        }

        @Override
        protected void answered(TopicPartition partition, String method, Object[] args) {
            if (method.equals("read")) {
                reads++;
                if (!onExecutor.getAsBoolean()) {
                    readsOffTheExecutor++;
                }
            }
            after.accept(partition, method);
        }
    }

    /** A fetch whose answer puts the client over its fetch quota: answered empty, the session left as it was. */
    @Nested
    class Throttled {
        private final FetchService sessionFetch = new FetchService(topics, purgatory, scheduler, Runnable::run,
                BrokerMetrics.unobserved(),
                new FetchSessions(10, 60_000, scheduler.clock(), () -> 42));

        private FetchUseCase.SessionFetchResult fetch(int sessionId, int epoch, FetchUseCase.FetchQuota quota) {
            List<FetchUseCase.SessionPartition> partitions = epoch == FetchSessionEpoch.INITIAL
                    ? List.of(new FetchUseCase.SessionPartition(SessionKey.byName("t", 0), 0,
                            Integer.MAX_VALUE, -1)) : List.of();
            return sessionFetch.fetch(new FetchUseCase.SessionFetch(sessionId, epoch, false, 0, 1, Integer.MAX_VALUE,
                    false, partitions, List.of(), name -> true, quota)).toCompletableFuture().join();
        }

        @Test
        void aThrottledFullFetchAnswersNothingAndOpensNoSession() {
            append(P0, TestBatches.plain(1));

            FetchUseCase.SessionFetchResult result = fetch(0, 0, bytes -> bytes > 0 ? 700 : 0);

            assertThat(result.throttleTimeMs()).isEqualTo(700);
            assertThat(result.partitions()).isEmpty();
            assertThat(result.sessionId()).isZero();
        }

        @Test
        void aThrottledIncrementalFetchLeavesTheSessionSoTheDataComesNextTime() {
            FetchUseCase.SessionFetchResult opened = fetch(0, 0, FetchUseCase.FetchQuota.NONE);
            assertThat(opened.sessionId()).isEqualTo(42);
            append(P0, TestBatches.plain(1));

            FetchUseCase.SessionFetchResult throttled = fetch(42, 1, bytes -> 500);
            assertThat(throttled.partitions()).isEmpty();
            assertThat(throttled.sessionId()).isEqualTo(42);
            assertThat(throttled.error()).isEqualTo(KafkaError.NONE);

            FetchUseCase.SessionFetchResult next = fetch(42, 2, FetchUseCase.FetchQuota.NONE);
            assertThat(next.throttleTimeMs()).isZero();
            assertThat(next.partitions()).singleElement()
                    .satisfies(answer -> assertThat(answer.data().sizeInBytes()).isEqualTo(BATCH));
        }
    }
}
