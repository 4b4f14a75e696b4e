package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.application.port.in.DeleteRecordsUseCase;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.requests.DeleteRecordsResponse;

/** DeleteRecords (key 21): advances log start offsets; offset -1 means the high watermark. */
public final class DeleteRecordsHandler implements ApiHandler<DeleteRecordsRequest> {
    private final DeleteRecordsUseCase deleteRecords;

    public DeleteRecordsHandler(DeleteRecordsUseCase deleteRecords) {
        this.deleteRecords = deleteRecords;
    }

    @Override
    public CompletionStage<DeleteRecordsResponse> handle(RequestContext context, DeleteRecordsRequest request) {
        List<DeleteRecordsUseCase.Request> requests = new ArrayList<>();
        for (DeleteRecordsRequestData.DeleteRecordsTopic topic : request.data().topics()) {
            for (DeleteRecordsRequestData.DeleteRecordsPartition p : topic.partitions()) {
                requests.add(new DeleteRecordsUseCase.Request(new TopicPartition(topic.name(), p.partitionIndex()),
                        p.offset()));
            }
        }
        return context.resume(deleteRecords.deleteRecords(requests)).thenApply(DeleteRecordsHandler::response);
    }

    private static DeleteRecordsResponse response(List<DeleteRecordsUseCase.Result> results) {
        DeleteRecordsResponseData data = new DeleteRecordsResponseData();
        data.topics().addAll(ByTopic.group(results, r -> r.partition().topic(),
                name -> new DeleteRecordsResponseData.DeleteRecordsTopicResult().setName(name),
                (topic, r) -> topic.partitions().add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                        .setPartitionIndex(r.partition().partition())
                        .setLowWatermark(r.lowWatermark())
                        .setErrorCode(r.error().code()))));
        return new DeleteRecordsResponse(data);
    }
}
