package io.kaas.application.topic;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.DeleteRecordsUseCase;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/** DeleteRecords: each partition's new log start is made durable on the I/O executor, off the network threads. */
public final class DeleteRecordsService implements DeleteRecordsUseCase {
    private final TopicService topics;
    private final Executor io;

    public DeleteRecordsService(TopicService topics, Executor io) {
        this.topics = topics;
        this.io = io;
    }

    @Override
    public CompletionStage<List<Result>> deleteRecords(List<Request> requests) {
        return CompletableFuture.supplyAsync(() -> {
            List<Result> results = new ArrayList<>(requests.size());
            for (Request request : requests) {
                results.add(deleteOne(request));
            }
            return results;
        }, io);
    }

    private Result deleteOne(Request request) {
        Optional<PartitionLog> found = topics.log(request.partition());
        if (found.isEmpty()) {
            return new Result(request.partition(), topics.notServedHere(request.partition()), -1L);
        }
        if (topics.config(request.partition().topic()).map(c -> !c.deleteRetention()).orElse(false)) {
            // a compact-only topic's records go only by compaction, as Apache's deleteRecordsOnLeader insists
            return new Result(request.partition(), KafkaError.POLICY_VIOLATION, -1L);
        }
        PartitionLog log = found.get();
        long offset = request.offset() == HIGH_WATERMARK ? log.offsets().highWatermark() : request.offset();
        KafkaError error = log.deleteRecordsBefore(offset);
        return new Result(request.partition(), error, error == KafkaError.NONE ? log.offsets().logStartOffset() : -1L);
    }
}
