package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.ProducerIdUseCase;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;

/**
 * InitProducerId (key 22), v0-4. Without a transactional id (null) the producer is idempotent and
 * gets a fresh producer id at epoch 0 from this broker's block, as from any Apache broker. With one,
 * the transaction coordinator answers: the id's producer id and a new epoch, checked against the
 * producer id and epoch the caller names (v3+, KIP-360; naming only one of them is INVALID_REQUEST).
 * PRODUCER_FENCED became a code in v4; older callers get INVALID_PRODUCER_EPOCH, as from Apache.
 */
public final class InitProducerIdHandler implements ApiHandler<InitProducerIdRequest> {
    /** InitProducerId v4 introduced PRODUCER_FENCED (KIP-588). */
    private static final int FIRST_PRODUCER_FENCED_VERSION = 4;
    private static final long NO_PRODUCER_ID = -1L;
    private static final short NO_PRODUCER_EPOCH = -1;

    private final ProducerIdUseCase producerIds;
    private final TransactionCoordinator transactions;
    private final Access access;

    public InitProducerIdHandler(ProducerIdUseCase producerIds, TransactionCoordinator transactions, Access access) {
        this.producerIds = producerIds;
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<InitProducerIdResponse> handle(RequestContext context, InitProducerIdRequest request) {
        InitProducerIdRequestData data = request.data();
        boolean noId = data.producerId() == NO_PRODUCER_ID;
        boolean noEpoch = data.producerEpoch() == NO_PRODUCER_EPOCH;
        if (noId != noEpoch) {
            return completed(failed(KafkaError.INVALID_REQUEST, request.version()));
        }
        if (data.transactionalId() == null ? !idempotentWriteAllowed(context)
                : !access.transactionalId(context, AclOperation.WRITE, data.transactionalId())) {
            return completed(failed(data.transactionalId() == null ? KafkaError.CLUSTER_AUTHORIZATION_FAILED
                    : KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, request.version()));
        }
        if (data.transactionalId() == null) {
            return context.resume(producerIds.newProducerId()).thenApply(producerId -> new InitProducerIdResponse(
                    new InitProducerIdResponseData().setProducerId(producerId).setProducerEpoch((short) 0)));
        }
        TransactionCoordinator.ExpectedProducer expected = noId ? null
                : new TransactionCoordinator.ExpectedProducer(data.producerId(), data.producerEpoch());
        return context.resume(transactions.initProducerId(data.transactionalId(), data.transactionTimeoutMs(), expected))
                .thenApply(r -> new InitProducerIdResponse(new InitProducerIdResponseData()
                        .setErrorCode(ErrorMapping.producerFencedAware(r.error(), request.version(),
                                FIRST_PRODUCER_FENCED_VERSION))
                        .setProducerId(r.producerId()).setProducerEpoch(r.producerEpoch())));
    }

    /** As Apache 3.7 (KIP-679): IDEMPOTENT_WRITE on the cluster, or WRITE on any topic. */
    private boolean idempotentWriteAllowed(RequestContext context) {
        return access.cluster(context, AclOperation.IDEMPOTENT_WRITE)
                || access.any(context, AclOperation.WRITE, AclResourceType.TOPIC);
    }

    private static InitProducerIdResponseData failed(KafkaError error, short version) {
        return new InitProducerIdResponseData().setErrorCode(ErrorMapping.producerFencedAware(error, version,
                FIRST_PRODUCER_FENCED_VERSION)).setProducerId(NO_PRODUCER_ID).setProducerEpoch(NO_PRODUCER_EPOCH);
    }

    private static CompletionStage<InitProducerIdResponse> completed(InitProducerIdResponseData data) {
        return CompletableFuture.completedFuture(new InitProducerIdResponse(data));
    }
}
