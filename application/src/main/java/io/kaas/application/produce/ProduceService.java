package io.kaas.application.produce;

import io.kaas.application.cluster.WriteFence;
import io.kaas.application.log.AppendQueue;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.RecordKeys;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.batch.BatchValidator;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TimestampValidator;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.idempotence.VerificationGuard;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The produce path in front of the logs: per partition, the topic must exist, the batch must be
 * one valid v2 batch within the topic's {@code max.message.bytes} and {@code segment.bytes}, and
 * its timestamps within the topic's limits; a LogAppendTime topic's batch is then stamped with the
 * broker's clock (a header rewrite). A transactional batch that would start its producer's
 * transaction on the partition is first confirmed with the transaction coordinator (KIP-890
 * verification, as Apache 3.7 does by default). The log classifies and appends it, on its append
 * queue (an I/O thread for a log on files: the caller may be an event loop). For {@code acks=-1}
 * the answer waits until the log reports the batch durable.
 */
public final class ProduceService implements ProduceUseCase {
    private final TopicService topics;
    private final Clock clock;
    private final Scheduler scheduler;
    private final TransactionVerifier verifier;
    private final WriteFence fence;
    private final BrokerMetrics metrics;
    /** Finds keyless records in batches for compacted topics; null when nothing checks them. */
    private final RecordKeys keys;

    /** Without transaction verification ({@code transaction.partition.verification.enable=false}) nor metrics. */
    public ProduceService(TopicService topics, Clock clock, Scheduler scheduler) {
        this(topics, clock, scheduler, null, WriteFence.OPEN, BrokerMetrics.unobserved());
    }

    /**
     * @param verifier asks transaction coordinators about transactional batches; null turns verification off
     * @param fence    refuses writes while this broker is cut off from its controller (the self-fence)
     * @param metrics  counts each topic's appended bytes and records
     */
    public ProduceService(TopicService topics, Clock clock, Scheduler scheduler, TransactionVerifier verifier,
                          WriteFence fence, BrokerMetrics metrics) {
        this(topics, clock, scheduler, verifier, fence, metrics, null);
    }

    /**
     * @param keys finds the records without a key in a batch for a compacted topic, which refuses them;
     *             null lets them in
     */
    public ProduceService(TopicService topics, Clock clock, Scheduler scheduler, TransactionVerifier verifier,
                          WriteFence fence, BrokerMetrics metrics, RecordKeys keys) {
        this.keys = keys;
        this.topics = topics;
        this.clock = clock;
        this.scheduler = scheduler;
        this.verifier = verifier;
        this.fence = fence;
        this.metrics = metrics;
    }

    @Override
    public CompletionStage<List<PartitionResult>> produce(Command command) {
        short acks = command.acks();
        if (acks != 0 && acks != 1 && acks != -1) {
            List<PartitionResult> invalid = new ArrayList<>();
            for (PartitionRecords p : command.partitions()) {
                invalid.add(PartitionResult.failed(p.partition(), KafkaError.INVALID_REQUIRED_ACKS, null));
            }
            return CompletableFuture.completedFuture(invalid);
        }
        if (command.transactionalId() == null && command.partitions().stream().anyMatch(ProduceService::isTransactional)) {
            // Apache: transactional records need a transactional id the client may write for.
            List<PartitionResult> refused = new ArrayList<>();
            for (PartitionRecords p : command.partitions()) {
                refused.add(PartitionResult.failed(p.partition(), KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, null));
            }
            return CompletableFuture.completedFuture(refused);
        }
        long now = clock.nowMs();
        long receivedNanos = metrics.nanoTime();
        boolean fenced = fence.fenced();
        List<CompletableFuture<CompletableFuture<PartitionResult>>> appended = new ArrayList<>(command.partitions().size());
        List<AppendQueue> turns = new ArrayList<>(command.partitions().size());
        Steps steps = Steps.of(command.span());
        for (PartitionRecords p : command.partitions()) {
            appended.add(appendOne(command, p, now, receivedNanos, fenced, turns, steps));
        }
        AppendQueue.runTurns(turns, command.handOffAt()); // one hand-off for the request, or for the loop's tick
        List<CompletableFuture<PartitionResult>> results = appended.stream()
                .map(a -> a.thenCompose(Function.identity())).toList();
        CompletableFuture<List<PartitionResult>> all = CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> results.stream().map(CompletableFuture::join).toList());
        if (acks == -1) {
            // As Apache's DelayedProduce: the timeout bounds the wait for durability, from when every batch is
            // appended. It never answers before then: an append still queued reads the request's bytes.
            CompletableFuture.allOf(appended.toArray(CompletableFuture[]::new)).thenRun(() -> {
                if (!all.isDone()) {
                    Scheduler.Cancellable timeout = scheduler.schedule(
                            () -> all.complete(timedOut(command.partitions(), results)), command.timeoutMs());
                    all.whenComplete((r, e) -> timeout.cancel());
                }
            });
        }
        return all;
    }

    /**
     * Checks and appends one partition's batch. The outer future completes once the batch is appended
     * (or refused), with its answer, which for {@code acks=-1} waits until the batch is durable. The
     * append itself is held on the log's append queue, for the request's turn ({@code turns}), or once a
     * verification completes for a turn of its own; never on the caller's thread when the log is on files.
     */
    private CompletableFuture<CompletableFuture<PartitionResult>> appendOne(Command command, PartitionRecords p,
                                                                            long now, long receivedNanos,
                                                                            boolean fenced, List<AppendQueue> turns,
                                                                            Steps steps) {
        Optional<PartitionLog> log = topics.log(p.partition());
        Optional<TopicConfig> config = topics.config(p.partition().topic());
        if (log.isEmpty() || config.isEmpty() || fenced) {
            KafkaError error = topics.notServedHere(p.partition());
            return failed(p, error, error == KafkaError.NOT_LEADER_OR_FOLLOWER ? "This is not the correct leader for "
                    + p.partition() + "." : "This server does not host this topic-partition.");
        }
        TopicConfig cfg = config.get();
        int size = p.records().remaining();
        if (size > cfg.maxMessageBytes()) {
            return failed(p, KafkaError.MESSAGE_TOO_LARGE, "The record batch size in the append to " + p.partition()
                    + " is " + size + " bytes which exceeds the maximum configured value of " + cfg.maxMessageBytes() + ".");
        }
        Optional<BatchValidator.Rejection> rejection = BatchValidator.validateProduced(p.records());
        if (rejection.isEmpty()) {
            rejection = checkTimestamps(p, cfg, now);
        }
        if (rejection.isPresent()) {
            return failed(p, rejection.get().error(), rejection.get().message());
        }
        if (cfg.compact() && keys != null) {
            Optional<PartitionResult> keyless = refuseKeyless(p);
            if (keyless.isPresent()) {
                return CompletableFuture.completedFuture(CompletableFuture.completedFuture(keyless.get()));
            }
        }
        if (size > cfg.segmentBytes()) {
            return failed(p, KafkaError.RECORD_LIST_TOO_LARGE, "Message batch size is " + size + " bytes in append to "
                    + "partition " + p.partition() + ", which exceeds the maximum configured segment size of "
                    + cfg.segmentBytes() + ".");
        }
        boolean logAppendTime = cfg.timestampType() == TopicConfig.TimestampType.LOG_APPEND_TIME;
        if (logAppendTime) {
            RecordBatchHeader.at(p.records()).setLogAppendTime(now);
        }
        RecordBatchHeader header = RecordBatchHeader.at(p.records());
        PartitionLog partitionLog = log.get();
        Appending appending = new Appending(partitionLog, p, header, now, receivedNanos, logAppendTime,
                command.acks() == -1, cfg.flushMessages() == 1, steps);
        if (verifier != null && header.isTransactional() && header.hasProducerId()) {
            VerificationGuard guard = partitionLog.beginVerification(header.producerId(), now);
            if (guard != VerificationGuard.NOT_REQUIRED) {
                return verifier.verifyPartitions(command.transactionalId(), header.producerId(), header.producerEpoch(),
                                Set.of(p.partition())).toCompletableFuture()
                        .thenCompose(errors -> {
                            KafkaError verified = errors.getOrDefault(p.partition(), KafkaError.INVALID_TXN_STATE);
                            if (verified != KafkaError.NONE) {
                                return unverified(p, verified);
                            }
                            List<AppendQueue> ownTurn = new ArrayList<>(1);
                            var result = append(appending, guard, ownTurn);
                            AppendQueue.runTurns(ownTurn);
                            return result;
                        });
            }
        }
        return append(appending, VerificationGuard.NOT_REQUIRED, turns);
    }

    /** Why an appended batch never became durable: a newer leader took over, or the volume failed. */
    private static PartitionResult notDurable(PartitionRecords p, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof KafkaException refused
                ? PartitionResult.failed(p.partition(), refused.error(), refused.getMessage())
                : PartitionResult.failed(p.partition(), KafkaError.KAFKA_STORAGE_ERROR, cause.getMessage());
    }

    /**
     * One partition's batch on its way into the log.
     *
     * @param receivedNanos    when the request reached this service, on the metrics' clock
     * @param syncsEveryAppend the partition fsyncs every append (flush.messages=1): acks=-1 means "on disk"
     * @param steps            the request's traced steps, shared by its partitions
     */
    private record Appending(PartitionLog log, PartitionRecords p, RecordBatchHeader header, long now,
                             long receivedNanos, boolean logAppendTime, boolean waitDurable, boolean syncsEveryAppend,
                             Steps steps) {
    }

    /** A request's two traced steps: one span each for all its partitions. */
    private record Steps(StepSpan append, StepSpan fsync) {
        private static final Steps UNTRACED = new Steps(StepSpan.NONE, StepSpan.NONE);

        /** An unsampled request's steps are shared: tracing allocates nothing for it. */
        static Steps of(TraceSpan request) {
            return request == TraceSpan.NONE ? UNTRACED
                    : new Steps(StepSpan.of(request, "append"), StepSpan.of(request, "fsync"));
        }
    }

    private CompletableFuture<CompletableFuture<PartitionResult>> append(Appending a, VerificationGuard guard,
                                                                         List<AppendQueue> turns) {
        CompletableFuture<AppendResult> appended = new CompletableFuture<>();
        AppendQueue queue = a.log.appendQueue();
        a.steps.append().expect();
        queue.hold(() -> appendNow(a, guard, appended));
        turns.add(queue);
        // Counted from the header's record count field: the records themselves are never read.
        int bytes = a.p.records().remaining();
        int records = a.header.recordsCount();
        return appended.thenApply(result -> {
            if (result instanceof AppendResult.Appended) {
                metrics.topic(a.p.partition().topic()).appended(bytes, records);
            }
            return answer(a, result);
        });
    }

    /** The append, on the log's append queue: timed, and traced in the request's {@code append} step. */
    private void appendNow(Appending a, VerificationGuard guard, CompletableFuture<AppendResult> appended) {
        long started = metrics.nanoTime();
        metrics.produceStep(BrokerMetrics.ProduceStep.QUEUE).record(started - a.receivedNanos);
        AppendResult result;
        try (TraceSpan.Scope ignored = a.steps.append().start().activate()) {
            result = a.log.append(a.p.records(), a.now, guard);
        } catch (Throwable failure) {
            a.steps.append().done(failure);
            appended.completeExceptionally(failure);
            return;
        }
        a.steps.append().done(null);
        metrics.produceStep(BrokerMetrics.ProduceStep.APPEND).record(metrics.nanoTime() - started);
        appended.complete(result);
    }

    private CompletableFuture<PartitionResult> answer(Appending a, AppendResult result) {
        PartitionRecords p = a.p;
        if (result instanceof AppendResult.Appended appended) {
            PartitionResult ok = new PartitionResult(p.partition(), KafkaError.NONE, null, appended.baseOffset(),
                    a.logAppendTime ? a.now : appended.logAppendTimeMs(), appended.logStartOffset());
            if (!a.waitDurable) {
                return CompletableFuture.completedFuture(ok);
            }
            long lastOffset = appended.baseOffset() + a.header.lastOffsetDelta();
            return whenDurable(a, appended.durable(), ok).thenApply(answer -> {
                if (a.syncsEveryAppend && answer.error() == KafkaError.NONE && a.log.syncedOffset() <= lastOffset) {
                    metrics.acksBeforeSync().increment(); // answered before an fsync covered it: the promise broken
                }
                return answer;
            });
        }
        if (result instanceof AppendResult.Duplicate duplicate) {
            PartitionResult ok = new PartitionResult(p.partition(), KafkaError.NONE, null, duplicate.baseOffset(), -1L,
                    duplicate.logStartOffset());
            if (!a.waitDurable) {
                return CompletableFuture.completedFuture(ok);
            }
            // The original may still be on its way to the disk (its producer re-sent it after a timeout or a dropped
            // connection): acks=-1 answers once it is durable, as Apache waits for the original's replication.
            long end = duplicate.baseOffset() + RecordBatchHeader.at(p.records()).lastOffsetDelta() + 1;
            return whenDurable(a, a.log.durableThrough(end), ok);
        }
        AppendResult.Rejected rejected = (AppendResult.Rejected) result;
        return CompletableFuture.completedFuture(PartitionResult.failed(p.partition(), rejected.error(), rejected.message()));
    }

    /**
     * acks=-1: {@code ok} once {@code durable} completes; the wait is timed, and traced in the request's
     * {@code fsync} step. When there is nothing to wait for (the log in memory, an fsync that already covered the
     * batch) the wait is 0 without reading the clock, and no step.
     */
    private CompletableFuture<PartitionResult> whenDurable(Appending a, CompletionStage<Void> durable,
                                                           PartitionResult ok) {
        CompletableFuture<Void> wait = durable.toCompletableFuture();
        boolean waits = !wait.isDone();
        long waitFrom = waits ? metrics.nanoTime() : 0L;
        if (waits) {
            a.steps.fsync().expect();
            a.steps.fsync().start();
        }
        return wait.handle((v, e) -> {
            metrics.produceStep(BrokerMetrics.ProduceStep.FSYNC_WAIT).record(waits ? metrics.nanoTime() - waitFrom : 0L);
            if (waits) {
                a.steps.fsync().done(e);
            }
            return e == null ? ok : notDurable(a.p, e);
        });
    }

    /**
     * A verification that failed, answered as Apache 3.7's ReplicaManager and AddPartitionsToTxnManager
     * do: retriable coordinator trouble becomes NOT_ENOUGH_REPLICAS (which every client retries without a
     * metadata refresh); a partition not in the transaction is INVALID_TXN_STATE; a fenced producer is
     * INVALID_PRODUCER_EPOCH, the one code Produce has for it (librdkafka treats PRODUCER_FENCED on a
     * Produce as abortable and keeps producing); the producer's other errors pass through.
     */
    private static CompletableFuture<CompletableFuture<PartitionResult>> unverified(PartitionRecords p, KafkaError error) {
        return switch (error) {
            case INVALID_TXN_STATE -> failed(p, error, "Partition was not added to the transaction");
            case PRODUCER_FENCED -> failed(p, KafkaError.INVALID_PRODUCER_EPOCH, null);
            case CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR ->
                    failed(p, KafkaError.NOT_ENOUGH_REPLICAS, "Unable to verify the partition has been added to the "
                            + "transaction. Underlying error: " + error);
            default -> failed(p, error, null);
        };
    }

    /**
     * A compacted topic refuses records without a key, as Apache 3.7's {@code LogValidator}: INVALID_RECORD
     * naming each such record. The one produce check that reads records, and only for compacted topics.
     */
    private Optional<PartitionResult> refuseKeyless(PartitionRecords p) {
        List<Integer> keyless = keys.recordsWithoutKey(p.records());
        if (keyless.isEmpty()) {
            return Optional.empty();
        }
        String message = "Compacted topic cannot accept message without key in topic partition " + p.partition() + ".";
        List<RecordError> errors = keyless.stream().map(i -> new RecordError(i, message)).toList();
        String summary = "One or more records have been rejected due to " + errors.size() + " record errors in total,"
                + " and only showing the first three errors at most: " + errors.subList(0, Math.min(3, errors.size()))
                .stream().map(e -> "RecordError(batchIndex=" + e.batchIndex() + ", message='" + e.message() + "')")
                .toList();
        return Optional.of(new PartitionResult(p.partition(), KafkaError.INVALID_RECORD, summary, -1L, -1L, -1L, errors));
    }

    private static boolean isTransactional(PartitionRecords p) {
        ByteBuffer records = p.records();
        return records.remaining() >= RecordBatchHeader.HEADER_SIZE && RecordBatchHeader.at(records).isTransactional();
    }

    private static Optional<BatchValidator.Rejection> checkTimestamps(PartitionRecords p, TopicConfig cfg, long now) {
        return TimestampValidator.validate(RecordBatchHeader.at(p.records()),
                cfg.timestampType() == TopicConfig.TimestampType.LOG_APPEND_TIME, cfg.timestampBeforeMaxMs(),
                cfg.timestampAfterMaxMs(), now);
    }

    private static List<PartitionResult> timedOut(List<PartitionRecords> partitions,
                                                  List<CompletableFuture<PartitionResult>> results) {
        List<PartitionResult> out = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            CompletableFuture<PartitionResult> r = results.get(i);
            out.add(r.isDone() ? r.join()
                    : PartitionResult.failed(partitions.get(i).partition(), KafkaError.REQUEST_TIMED_OUT, null));
        }
        return out;
    }

    private static CompletableFuture<CompletableFuture<PartitionResult>> failed(PartitionRecords p, KafkaError error,
                                                                                 String message) {
        return CompletableFuture.completedFuture(
                CompletableFuture.completedFuture(PartitionResult.failed(p.partition(), error, message)));
    }
}
