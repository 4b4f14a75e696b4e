package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.DeleteRecordsUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.requests.DeleteRecordsResponse;

/**
 * DeleteRecords (key 21): advances log start offsets; offset -1 means the high watermark. DELETE on each topic,
 * else TOPIC_AUTHORIZATION_FAILED for its partitions, as Apache.
 */
public final class DeleteRecordsHandler implements ApiHandler<DeleteRecordsRequest> {
    /** Apache's low watermark of a partition not acted on. */
    private static final long NO_LOW_WATERMARK = -1L;

    private final DeleteRecordsUseCase deleteRecords;
    private final Access access;

    public DeleteRecordsHandler(DeleteRecordsUseCase deleteRecords, Access access) {
        this.deleteRecords = deleteRecords;
        this.access = access;
    }

    @Override
    public CompletionStage<DeleteRecordsResponse> handle(RequestContext context, DeleteRecordsRequest request) {
        List<DeleteRecordsUseCase.Request> requests = new ArrayList<>();
        List<DeleteRecordsUseCase.Result> refused = new ArrayList<>();
        for (DeleteRecordsRequestData.DeleteRecordsTopic topic : request.data().topics()) {
            boolean deletable = access.topic(context, AclOperation.DELETE, topic.name());
            for (DeleteRecordsRequestData.DeleteRecordsPartition p : topic.partitions()) {
                if (!deletable) {
                    refused.add(new DeleteRecordsUseCase.Result(new TopicPartition(topic.name(), p.partitionIndex()),
                            KafkaError.TOPIC_AUTHORIZATION_FAILED, NO_LOW_WATERMARK));
                    continue;
                }
                requests.add(new DeleteRecordsUseCase.Request(new TopicPartition(topic.name(), p.partitionIndex()),
                        p.offset()));
            }
        }
        return context.resume(deleteRecords.deleteRecords(requests)).thenApply(results -> {
            List<DeleteRecordsUseCase.Result> all = new ArrayList<>(results);
            all.addAll(refused);
            return response(all);
        });
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
