package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * WriteTxnMarkers' receiver side: appends COMMIT/ABORT markers to partitions this broker leads,
 * each answered once its marker is durable.
 */
public interface WriteTxnMarkersUseCase {

    /** One error per partition of each request, in order. */
    CompletionStage<List<Map<TopicPartition, KafkaError>>> writeMarkers(List<MarkerRequest> requests);

    record MarkerRequest(TxnMarker marker, List<TopicPartition> partitions) {
    }
}
