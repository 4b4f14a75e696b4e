package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.application.port.in.ProducerIdUseCase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;

/**
 * InitProducerId (key 22). Idempotent producers (no transactional id) get a fresh producer id at
 * epoch 0 from this broker's block, as from any Apache broker. Transactional ids need the
 * transaction coordinator, which this broker does not run yet: COORDINATOR_NOT_AVAILABLE.
 */
public final class InitProducerIdHandler implements ApiHandler<InitProducerIdRequest> {
    private final ProducerIdUseCase producerIds;

    public InitProducerIdHandler(ProducerIdUseCase producerIds) {
        this.producerIds = producerIds;
    }

    @Override
    public CompletionStage<InitProducerIdResponse> handle(RequestContext context, InitProducerIdRequest request) {
        String transactionalId = request.data().transactionalId();
        InitProducerIdResponseData data = new InitProducerIdResponseData();
        if (transactionalId != null && !transactionalId.isEmpty()) {
            data.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code()).setProducerId(-1L).setProducerEpoch((short) -1);
        } else {
            data.setProducerId(producerIds.newProducerId()).setProducerEpoch((short) 0);
        }
        return CompletableFuture.completedFuture(new InitProducerIdResponse(data));
    }
}
