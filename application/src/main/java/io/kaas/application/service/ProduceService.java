package io.kaas.application.service;

import io.kaas.application.log.AppendResult;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.batch.BatchValidator;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TimestampValidator;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The produce path in front of the logs: per partition, the topic must exist, the batch must be
 * one valid v2 batch within the topic's {@code max.message.bytes} and {@code segment.bytes}, and
 * its timestamps within the topic's limits; a LogAppendTime topic's batch is then stamped with the
 * broker's clock (a header rewrite). The log classifies and appends it. For {@code acks=-1} the
 * answer waits until the log reports the batch durable.
 */
public final class ProduceService implements ProduceUseCase {
    private final TopicService topics;
    private final Clock clock;
    private final Scheduler scheduler;

    public ProduceService(TopicService topics, Clock clock, Scheduler scheduler) {
        this.topics = topics;
        this.clock = clock;
        this.scheduler = scheduler;
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
        long now = clock.nowMs();
        List<CompletableFuture<PartitionResult>> results = new ArrayList<>(command.partitions().size());
        for (PartitionRecords p : command.partitions()) {
            results.add(appendOne(p, now, acks == -1));
        }
        CompletableFuture<List<PartitionResult>> all = CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> results.stream().map(CompletableFuture::join).toList());
        if (acks == -1 && !all.isDone()) {
            Scheduler.Cancellable timeout = scheduler.schedule(
                    () -> all.complete(timedOut(command.partitions(), results)), command.timeoutMs());
            all.whenComplete((r, e) -> timeout.cancel());
        }
        return all;
    }

    private CompletableFuture<PartitionResult> appendOne(PartitionRecords p, long now, boolean waitDurable) {
        Optional<PartitionLog> log = topics.log(p.partition());
        Optional<TopicConfig> config = topics.config(p.partition().topic());
        if (log.isEmpty() || config.isEmpty()) {
            return failed(p, KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition.");
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
        if (size > cfg.segmentBytes()) {
            return failed(p, KafkaError.RECORD_LIST_TOO_LARGE, "Message batch size is " + size + " bytes in append to "
                    + "partition " + p.partition() + ", which exceeds the maximum configured segment size of "
                    + cfg.segmentBytes() + ".");
        }
        boolean logAppendTime = cfg.timestampType() == TopicConfig.TimestampType.LOG_APPEND_TIME;
        if (logAppendTime) {
            RecordBatchHeader.at(p.records()).setLogAppendTime(now);
        }
        AppendResult result = log.get().append(p.records(), now);
        if (result instanceof AppendResult.Appended appended) {
            PartitionResult ok = new PartitionResult(p.partition(), KafkaError.NONE, null, appended.baseOffset(),
                    logAppendTime ? now : appended.logAppendTimeMs(), appended.logStartOffset());
            if (!waitDurable) {
                return CompletableFuture.completedFuture(ok);
            }
            return appended.durable().toCompletableFuture().handle((v, e) -> e == null ? ok
                    : PartitionResult.failed(p.partition(), KafkaError.KAFKA_STORAGE_ERROR, e.getMessage()));
        }
        if (result instanceof AppendResult.Duplicate duplicate) {
            return CompletableFuture.completedFuture(new PartitionResult(p.partition(), KafkaError.NONE, null,
                    duplicate.baseOffset(), -1L, duplicate.logStartOffset()));
        }
        AppendResult.Rejected rejected = (AppendResult.Rejected) result;
        return failed(p, rejected.error(), rejected.message());
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

    private static CompletableFuture<PartitionResult> failed(PartitionRecords p, KafkaError error, String message) {
        return CompletableFuture.completedFuture(PartitionResult.failed(p.partition(), error, message));
    }
}
