package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.ClientQuotasUseCase.Alteration;
import io.kaas.application.port.in.ClientQuotasUseCase.Op;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.AlterClientQuotasRequest;
import org.apache.kafka.common.requests.AlterClientQuotasResponse;

/**
 * AlterClientQuotas (key 49, KIP-546; {@code kafka-configs --alter --add-config producer_byte_rate=..
 * --entity-type users}): one result per entity. As Apache: cluster ALTER_CONFIGS first, refusing every entity with
 * CLUSTER_AUTHORIZATION_FAILED; an entity's components collapse by type (the last name wins) and an op with
 * {@code remove} removes its key. Runs off the event loop: the write is durable before the answer.
 */
public final class AlterClientQuotasHandler implements ApiHandler<AlterClientQuotasRequest> {
    private final ClientQuotasUseCase quotas;
    private final Access access;

    public AlterClientQuotasHandler(ClientQuotasUseCase quotas, Access access) {
        this.quotas = quotas;
        this.access = access;
    }

    @Override
    public CompletionStage<AbstractResponse> handle(RequestContext context, AlterClientQuotasRequest request) {
        if (!access.cluster(context, AclOperation.ALTER_CONFIGS)) {
            return CompletableFuture.completedFuture(
                    request.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        List<Alteration> alterations = new ArrayList<>();
        for (AlterClientQuotasRequestData.EntryData entry : request.data().entries()) {
            Map<String, String> entity = new LinkedHashMap<>();
            entry.entity().forEach(e -> entity.put(e.entityType(), e.entityName()));
            List<Op> ops = entry.ops().stream().map(op -> new Op(op.key(), op.remove() ? null : op.value())).toList();
            alterations.add(new Alteration(entity, ops));
        }
        AlterClientQuotasResponseData data = new AlterClientQuotasResponseData();
        quotas.alter(alterations, request.data().validateOnly()).forEach(altered -> {
            AlterClientQuotasResponseData.EntryData result = new AlterClientQuotasResponseData.EntryData()
                    .setErrorCode(ErrorMapping.toErrors(altered.outcome().error()).code())
                    .setErrorMessage(altered.outcome().message());
            altered.entity().forEach((type, name) -> result.entity().add(
                    new AlterClientQuotasResponseData.EntityData().setEntityType(type).setEntityName(name)));
            data.entries().add(result);
        });
        return CompletableFuture.completedFuture(new AlterClientQuotasResponse(data));
    }
}
