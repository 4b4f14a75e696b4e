package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;

/**
 * EndTxn (key 26), v0-3: commits or aborts the transaction, answered once every marker is durable
 * and the staged offsets are committed or dropped. PRODUCER_FENCED became a code in v2; v0-1 get
 * INVALID_PRODUCER_EPOCH. WRITE on the transactional id, as Apache.
 */
public final class EndTxnHandler implements ApiHandler<EndTxnRequest> {
    private static final int FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator transactions;
    private final Access access;

    public EndTxnHandler(TransactionCoordinator transactions, Access access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<EndTxnResponse> handle(RequestContext context, EndTxnRequest request) {
        EndTxnRequestData data = request.data();
        if (!access.transactionalId(context, AclOperation.WRITE, data.transactionalId())) {
            return Refused.with(request, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        return context.resume(transactions.endTxn(data.transactionalId(), data.producerId(), data.producerEpoch(), data.committed()))
                .thenApply(error -> new EndTxnResponse(new EndTxnResponseData().setErrorCode(
                        ErrorMapping.producerFencedAware(error, request.version(), FIRST_PRODUCER_FENCED_VERSION))));
    }
}
