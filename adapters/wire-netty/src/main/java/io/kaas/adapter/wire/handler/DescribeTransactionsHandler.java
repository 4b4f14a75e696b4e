package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;

/**
 * DescribeTransactions (key 65), v0 (KIP-664, {@code kafka-transactions describe}): each id's
 * state, producer, timeout, start time and partitions, from the coordinator of its slot. As Apache:
 * DESCRIBE on each transactional id, else TRANSACTIONAL_ID_AUTHORIZATION_FAILED for it; only the partitions
 * of topics the principal may describe are listed.
 */
public final class DescribeTransactionsHandler implements ApiHandler<DescribeTransactionsRequest> {
    private final TransactionCoordinator transactions;
    private final Access access;

    public DescribeTransactionsHandler(TransactionCoordinator transactions, Access access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeTransactionsResponse> handle(RequestContext context, DescribeTransactionsRequest request) {
        List<String> allowed = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String id : request.data().transactionalIds()) {
            (access.transactionalId(context, AclOperation.DESCRIBE, id) ? allowed : refused).add(id);
        }
        return context.resume(transactions.describe(allowed)).thenApply(described -> {
            DescribeTransactionsResponseData data = new DescribeTransactionsResponseData();
            refused.forEach(id -> data.transactionStates().add(new DescribeTransactionsResponseData.TransactionState()
                    .setTransactionalId(id).setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())));
            for (TransactionCoordinator.TransactionDescription d : described) {
                DescribeTransactionsResponseData.TransactionState state = new DescribeTransactionsResponseData.TransactionState()
                        .setTransactionalId(d.transactionalId()).setErrorCode(d.error().code());
                if (d.error().code() == 0) {
                    state.setTransactionState(d.state()).setProducerId(d.producerId()).setProducerEpoch(d.producerEpoch())
                            .setTransactionTimeoutMs(d.timeoutMs()).setTransactionStartTimeMs(d.startMs());
                    d.partitions().stream().filter(tp -> access.topic(context, AclOperation.DESCRIBE, tp.topic()))
                            .forEach(tp -> {
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
