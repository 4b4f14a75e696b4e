package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.requests.ListTransactionsRequest;
import org.apache.kafka.common.requests.ListTransactionsResponse;

/**
 * ListTransactions (key 66), v0 (KIP-664, {@code kafka-transactions list}): the transactional ids
 * this broker coordinates, filtered by state and producer id; unknown state names are reported back. Only
 * the ids the principal may describe are listed, as Apache.
 */
public final class ListTransactionsHandler implements ApiHandler<ListTransactionsRequest> {
    private final TransactionCoordinator transactions;
    private final Access access;

    public ListTransactionsHandler(TransactionCoordinator transactions, Access access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<ListTransactionsResponse> handle(RequestContext context, ListTransactionsRequest request) {
        ListTransactionsRequestData data = request.data();
        Set<Long> producerIds = new HashSet<>(data.producerIdFilters());
        return context.resume(transactions.list(Set.copyOf(data.stateFilters()), producerIds)).thenApply(result -> {
            ListTransactionsResponseData response = new ListTransactionsResponseData()
                    .setErrorCode(result.error().code()).setUnknownStateFilters(result.unknownStates());
            result.transactions().stream()
                    .filter(t -> access.transactionalId(context, AclOperation.DESCRIBE, t.transactionalId()))
                    .forEach(t -> response.transactionStates().add(new ListTransactionsResponseData.TransactionState()
                    .setTransactionalId(t.transactionalId()).setProducerId(t.producerId()).setTransactionState(t.state())));
            return new ListTransactionsResponse(response);
        });
    }
}
