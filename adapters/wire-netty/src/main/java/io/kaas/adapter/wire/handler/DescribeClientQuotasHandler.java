package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.ClientQuotasUseCase.Component;
import io.kaas.application.port.in.ClientQuotasUseCase.MatchType;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;

/**
 * DescribeClientQuotas (key 48, KIP-546): the quotas configured per user, read from the cached
 * credentials; {@code kafka-configs --describe --entity-type users} asks it before the SCRAM
 * credentials. Quotas are described, not yet enforced. A refused filter answers the error with
 * no entries, as Apache does. Apache requires cluster DESCRIBE_CONFIGS; the authorization check
 * belongs here, before the use case, once ACLs exist.
 */
public final class DescribeClientQuotasHandler implements ApiHandler<DescribeClientQuotasRequest> {
    private final ClientQuotasUseCase quotas;
    private final Access access;

    public DescribeClientQuotasHandler(ClientQuotasUseCase quotas, Access access) {
        this.quotas = quotas;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeClientQuotasResponse> handle(RequestContext context, DescribeClientQuotasRequest request) {
        if (!access.cluster(context, AclOperation.DESCRIBE_CONFIGS)) {
            return answer(new DescribeClientQuotasResponseData().setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message()).setEntries(null));
        }
        List<Component> filter = new ArrayList<>();
        for (DescribeClientQuotasRequestData.ComponentData c : request.data().components()) {
            MatchType type = switch (c.matchType()) {
                case DescribeClientQuotasRequest.MATCH_TYPE_EXACT -> MatchType.EXACT;
                case DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT -> MatchType.DEFAULT;
                case DescribeClientQuotasRequest.MATCH_TYPE_SPECIFIED -> MatchType.SPECIFIED;
                default -> null;
            };
            if (type == null) {
                return answer(new DescribeClientQuotasResponseData().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Unknown match type " + c.matchType()).setEntries(null));
            }
            filter.add(new Component(c.entityType(), type, c.match()));
        }
        ClientQuotasUseCase.Described described = quotas.describe(filter, request.data().strict());
        if (!described.outcome().succeeded()) {
            return answer(new DescribeClientQuotasResponseData().setErrorCode(described.outcome().error().code())
                    .setErrorMessage(described.outcome().message()).setEntries(null));
        }
        DescribeClientQuotasResponseData data = new DescribeClientQuotasResponseData().setErrorCode(Errors.NONE.code());
        for (ClientQuotasUseCase.Entry entry : described.entries()) {
            DescribeClientQuotasResponseData.EntryData wire = new DescribeClientQuotasResponseData.EntryData();
            entry.entity().forEach((type, name) -> wire.entity().add(new DescribeClientQuotasResponseData.EntityData()
                    .setEntityType(type).setEntityName(name)));
            entry.values().forEach((key, value) -> wire.values().add(new DescribeClientQuotasResponseData.ValueData()
                    .setKey(key).setValue(value)));
            data.entries().add(wire);
        }
        return answer(data);
    }

    private static CompletionStage<DescribeClientQuotasResponse> answer(DescribeClientQuotasResponseData data) {
        return CompletableFuture.completedFuture(new DescribeClientQuotasResponse(data));
    }
}
