package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.application.port.in.TransactionCoordinator;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;

/**
 * DescribeTransactions (key 65), v0 (KIP-664, {@code kafka-transactions describe}): each id's
 * state, producer, timeout, start time and partitions, from the coordinator of its slot.
 */
public final class DescribeTransactionsHandler implements ApiHandler<DescribeTransactionsRequest> {
    private final TransactionCoordinator transactions;

    public DescribeTransactionsHandler(TransactionCoordinator transactions) {
        this.transactions = transactions;
    }

    @Override
    public CompletionStage<DescribeTransactionsResponse> handle(RequestContext context, DescribeTransactionsRequest request) {
        return context.resume(transactions.describe(request.data().transactionalIds())).thenApply(described -> {
            DescribeTransactionsResponseData data = new DescribeTransactionsResponseData();
            for (TransactionCoordinator.TransactionDescription d : described) {
                DescribeTransactionsResponseData.TransactionState state = new DescribeTransactionsResponseData.TransactionState()
                        .setTransactionalId(d.transactionalId()).setErrorCode(d.error().code());
                if (d.error().code() == 0) {
                    state.setTransactionState(d.state()).setProducerId(d.producerId()).setProducerEpoch(d.producerEpoch())
                            .setTransactionTimeoutMs(d.timeoutMs()).setTransactionStartTimeMs(d.startMs());
                    d.partitions().forEach(tp -> {
                        DescribeTransactionsResponseData.TopicData topic = state.topics().find(tp.topic());
                        if (topic == null) {
                            topic = new DescribeTransactionsResponseData.TopicData().setTopic(tp.topic());
                            state.topics().add(topic);
                        }
                        topic.partitions().add(tp.partition());
                    });
                }
                data.transactionStates().add(state);
            }
            return new DescribeTransactionsResponse(data);
        });
    }
}
