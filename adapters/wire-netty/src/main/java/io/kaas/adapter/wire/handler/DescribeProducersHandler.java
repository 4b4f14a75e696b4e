package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.DescribeProducersUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicNames;
import io.kaas.domain.topic.TopicPartition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.requests.DescribeProducersResponse;

/**
 * DescribeProducers (key 61), v0 (KIP-664, {@code kafka-transactions describe-producers}): the
 * producers each partition's leader remembers, with their epochs, last sequences and the start
 * offset of a transaction in progress - what finds a hanging transaction.
 */
public final class DescribeProducersHandler implements ApiHandler<DescribeProducersRequest> {
    private final DescribeProducersUseCase producers;
    private final Access access;

    public DescribeProducersHandler(DescribeProducersUseCase producers, Access access) {
        this.producers = producers;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeProducersResponse> handle(RequestContext context, DescribeProducersRequest request) {
        DescribeProducersResponseData data = new DescribeProducersResponseData();
        for (DescribeProducersRequestData.TopicRequest topic : request.data().topics()) {
            DescribeProducersResponseData.TopicResponse topicResponse =
                    new DescribeProducersResponseData.TopicResponse().setName(topic.name());
            boolean validName = TopicNames.validate(topic.name()).isEmpty();
            boolean readable = access.topic(context, AclOperation.READ, topic.name());
            for (int partition : topic.partitionIndexes()) {
                DescribeProducersResponseData.PartitionResponse p = new DescribeProducersResponseData.PartitionResponse()
                        .setPartitionIndex(partition);
                if (!readable) {
                    p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                } else if (!validName) {
                    p.setErrorCode(Errors.INVALID_TOPIC_EXCEPTION.code());
                } else {
                    DescribeProducersUseCase.PartitionProducers described =
                            producers.describe(new TopicPartition(topic.name(), partition));
                    p.setErrorCode(described.error().code());
                    described.producers().forEach(s -> p.activeProducers().add(new DescribeProducersResponseData.ProducerState()
                            .setProducerId(s.producerId()).setProducerEpoch(s.producerEpoch())
                            .setLastSequence(s.lastSequence()).setLastTimestamp(s.lastTimestamp())
                            .setCoordinatorEpoch(s.coordinatorEpoch()).setCurrentTxnStartOffset(s.currentTxnStartOffset())));
                }
                topicResponse.partitions().add(p);
            }
            data.topics().add(topicResponse);
        }
        return CompletableFuture.completedFuture(new DescribeProducersResponse(data));
    }
}
