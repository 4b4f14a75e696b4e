package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;

/**
 * AddOffsetsToTxn (key 25), v0-3: the group whose offsets the transaction will commit
 * ({@code sendOffsetsToTransaction}). PRODUCER_FENCED became a code in v2; v0-1 get
 * INVALID_PRODUCER_EPOCH. As Apache: WRITE on the transactional id and READ on the group.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler<AddOffsetsToTxnRequest> {
    private static final int FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator transactions;
    private final Access access;

    public AddOffsetsToTxnHandler(TransactionCoordinator transactions, Access access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<AddOffsetsToTxnResponse> handle(RequestContext context, AddOffsetsToTxnRequest request) {
        AddOffsetsToTxnRequestData data = request.data();
        if (!access.transactionalId(context, AclOperation.WRITE, data.transactionalId())) {
            return Refused.with(request, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!access.group(context, AclOperation.READ, data.groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        return context.resume(transactions.addOffsets(data.transactionalId(), data.producerId(), data.producerEpoch(), data.groupId()))
                .thenApply(error -> new AddOffsetsToTxnResponse(new AddOffsetsToTxnResponseData().setErrorCode(
                        ErrorMapping.producerFencedAware(error, request.version(), FIRST_PRODUCER_FENCED_VERSION))));
    }
}
