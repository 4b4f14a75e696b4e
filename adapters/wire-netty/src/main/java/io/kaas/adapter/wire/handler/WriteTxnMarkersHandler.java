package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.WriteTxnMarkersUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;

/**
 * WriteTxnMarkers (key 27), v0-1: Apache's coordinator-to-leader API, served on the receiving side.
 * Each marker is appended to each named partition this broker leads (NOT_LEADER_OR_FOLLOWER for
 * the others, UNKNOWN_TOPIC_OR_PARTITION for unknown ones), and answered once durable. kaas
 * coordinators never send it: they append locally or queue markers on the shared volume.
 */
public final class WriteTxnMarkersHandler implements ApiHandler<WriteTxnMarkersRequest> {
    private final WriteTxnMarkersUseCase markers;
    private final Access access;

    public WriteTxnMarkersHandler(WriteTxnMarkersUseCase markers, Access access) {
        this.markers = markers;
        this.access = access;
    }

    @Override
    public CompletionStage<WriteTxnMarkersResponse> handle(RequestContext context, WriteTxnMarkersRequest request) {
        if (!access.cluster(context, AclOperation.CLUSTER_ACTION)) {
            return Refused.with(request, Errors.CLUSTER_AUTHORIZATION_FAILED);
        }
        List<WriteTxnMarkersUseCase.MarkerRequest> requests = new ArrayList<>();
        for (WriteTxnMarkersRequestData.WritableTxnMarker m : request.data().markers()) {
            List<TopicPartition> partitions = new ArrayList<>();
            m.topics().forEach(t -> t.partitionIndexes().forEach(p -> partitions.add(new TopicPartition(t.name(), p))));
            requests.add(new WriteTxnMarkersUseCase.MarkerRequest(
                    new TxnMarker(m.producerId(), m.producerEpoch(), m.coordinatorEpoch(), m.transactionResult()), partitions));
        }
        return context.resume(markers.writeMarkers(requests)).thenApply(results -> {
            WriteTxnMarkersResponseData data = new WriteTxnMarkersResponseData();
            for (int i = 0; i < requests.size(); i++) {
                data.markers().add(marker(requests.get(i).marker().producerId(), results.get(i)));
            }
            return new WriteTxnMarkersResponse(data);
        });
    }

    private static WriteTxnMarkersResponseData.WritableTxnMarkerResult marker(long producerId,
                                                                            Map<TopicPartition, KafkaError> errors) {
        WriteTxnMarkersResponseData.WritableTxnMarkerResult result =
                new WriteTxnMarkersResponseData.WritableTxnMarkerResult().setProducerId(producerId);
        errors.forEach((tp, error) -> {
            WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult topic = result.topics().stream()
                    .filter(t -> t.name().equals(tp.topic())).findFirst().orElseGet(() -> {
                        WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult t =
                                new WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult().setName(tp.topic());
                        result.topics().add(t);
                        return t;
                    });
            topic.partitions().add(new WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult()
                    .setPartitionIndex(tp.partition()).setErrorCode(ErrorMapping.toErrors(error).code()));
        });
        return result;
    }
}
