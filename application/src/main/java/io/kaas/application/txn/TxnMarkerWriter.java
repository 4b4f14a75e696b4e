package io.kaas.application.txn;

import io.kaas.application.log.AppendResult;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.WriteTxnMarkersUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Appends transaction markers to the partitions this broker leads: for its own transaction
 * coordinator, for markers other brokers queued for it, and for WriteTxnMarkers requests, on each
 * log's append queue. Each answer comes once the marker is durable.
 */
public final class TxnMarkerWriter implements WriteTxnMarkersUseCase {
    private final TopicService topics;
    private final ClusterUseCase cluster;
    private final Clock clock;

    public TxnMarkerWriter(TopicService topics, ClusterUseCase cluster, Clock clock) {
        this.topics = topics;
        this.cluster = cluster;
        this.clock = clock;
    }

    /**
     * Appends one marker: UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist,
     * NOT_LEADER_OR_FOLLOWER for one another broker leads, the log's refusal, or
     * KAFKA_STORAGE_ERROR when it cannot be made durable.
     */
    public CompletableFuture<KafkaError> write(TopicPartition partition, TxnMarker marker) {
        Optional<PartitionLog> log = topics.log(partition);
        if (log.isEmpty()) {
            return CompletableFuture.completedFuture(topics.notServedHere(partition));
        }
        if (cluster.leaderOf(partition.topic(), partition.partition()) != cluster.self().id()) {
            return CompletableFuture.completedFuture(KafkaError.NOT_LEADER_OR_FOLLOWER);
        }
        PartitionLog partitionLog = log.get();
        // On the log's append queue: in order with the partition's produced batches, and off the caller's thread
        // (an event loop, for WriteTxnMarkers) since appending writes the segment file.
        return CompletableFuture.supplyAsync(() -> partitionLog.appendMarker(marker, clock.nowMs()),
                partitionLog.appendQueue()).thenCompose(TxnMarkerWriter::durably);
    }

    /**
     * Whether a marker's answer leaves nothing to do: placed, the partition gone (Apache skips
     * partitions without a leader), or a newer epoch already ended the producer's transaction there.
     */
    static boolean settled(KafkaError error) {
        return error == KafkaError.NONE || error == KafkaError.UNKNOWN_TOPIC_OR_PARTITION
                || error == KafkaError.INVALID_PRODUCER_EPOCH || error == KafkaError.TRANSACTION_COORDINATOR_FENCED;
    }

    private static CompletableFuture<KafkaError> durably(AppendResult result) {
        if (result instanceof AppendResult.Appended appended) {
            return appended.durable().toCompletableFuture()
                    .handle((ok, failure) -> failure == null ? KafkaError.NONE : KafkaError.KAFKA_STORAGE_ERROR);
        }
        if (result instanceof AppendResult.Rejected rejected) {
            return CompletableFuture.completedFuture(rejected.error());
        }
        return CompletableFuture.completedFuture(KafkaError.NONE);
    }

    @Override
    public CompletionStage<List<Map<TopicPartition, KafkaError>>> writeMarkers(List<MarkerRequest> requests) {
        List<CompletableFuture<Map<TopicPartition, KafkaError>>> answers = new ArrayList<>();
        for (MarkerRequest request : requests) {
            Map<TopicPartition, CompletableFuture<KafkaError>> results = new LinkedHashMap<>();
            request.partitions().forEach(tp -> results.put(tp, write(tp, request.marker())));
            answers.add(CompletableFuture.allOf(results.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
                Map<TopicPartition, KafkaError> errors = new LinkedHashMap<>();
                results.forEach((tp, f) -> errors.put(tp, f.join()));
                return errors;
            }));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(v -> answers.stream().map(CompletableFuture::join).toList());
    }
}
