package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.AclMapping;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;

/**
 * CreateAcls (key 30), v0-3: adds each binding, with one result per binding in request order. As Apache:
 * ALTER on the cluster first, then SECURITY_DISABLED without an authorizer; a binding with an UNKNOWN or
 * ANY field or a malformed principal answers INVALID_REQUEST on its own. Runs off the event loop: the
 * write is durable before the answer.
 */
public final class CreateAclsHandler implements ApiHandler<CreateAclsRequest> {
    private final AclAdminUseCase acls;
    private final Access access;

    public CreateAclsHandler(AclAdminUseCase acls, Access access) {
        this.acls = acls;
        this.access = access;
    }

    @Override
    public CompletionStage<AbstractResponse> handle(RequestContext context, CreateAclsRequest request) {
        Optional<CompletionStage<AbstractResponse>> refused =
                Refused.aclAdmin(access, context, request, AclOperation.ALTER);
        if (refused.isPresent()) {
            return refused.get();
        }
        List<Outcome> outcomes = new ArrayList<>();
        List<AclBinding> valid = new ArrayList<>();
        for (CreateAclsRequestData.AclCreation creation : request.aclCreations()) {
            try {
                valid.add(AclMapping.fromWire(CreateAclsRequest.aclBinding(creation)));
                outcomes.add(null);
            } catch (InvalidRequestException | IllegalArgumentException e) {
                outcomes.add(new Outcome(KafkaError.INVALID_REQUEST, e.getMessage()));
            }
        }
        var created = acls.create(valid).iterator();
        CreateAclsResponseData data = new CreateAclsResponseData();
        for (Outcome outcome : outcomes) {
            Outcome result = outcome != null ? outcome : created.next();
            data.results().add(new CreateAclsResponseData.AclCreationResult()
                    .setErrorCode(ErrorMapping.toErrors(result.error()).code()).setErrorMessage(result.message()));
        }
        return CompletableFuture.completedFuture(new CreateAclsResponse(data));
    }
}
