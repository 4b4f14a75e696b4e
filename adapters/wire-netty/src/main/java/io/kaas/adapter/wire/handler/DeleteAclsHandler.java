package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.AclMapping;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.domain.security.AclFilter;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;

/**
 * DeleteAcls (key 31), v0-3: removes what each filter selects and lists, per filter, the ACLs removed. As
 * Apache: ALTER on the cluster first, then SECURITY_DISABLED without an authorizer; a filter with an
 * UNKNOWN field answers INVALID_REQUEST on its own. Runs off the event loop: the write is durable before
 * the answer.
 */
public final class DeleteAclsHandler implements ApiHandler<DeleteAclsRequest> {
    private final AclAdminUseCase acls;
    private final Access access;

    public DeleteAclsHandler(AclAdminUseCase acls, Access access) {
        this.acls = acls;
        this.access = access;
    }

    @Override
    public CompletionStage<AbstractResponse> handle(RequestContext context, DeleteAclsRequest request) {
        Optional<CompletionStage<AbstractResponse>> refused =
                Refused.aclAdmin(access, context, request, AclOperation.ALTER);
        if (refused.isPresent()) {
            return refused.get();
        }
        List<DeleteAclsResponseData.DeleteAclsFilterResult> results = new ArrayList<>();
        List<AclFilter> valid = new ArrayList<>();
        for (var wire : request.filters()) {
            try {
                valid.add(AclMapping.fromWire(wire));
                results.add(null);
            } catch (InvalidRequestException e) {
                results.add(new DeleteAclsResponseData.DeleteAclsFilterResult()
                        .setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(e.getMessage()));
            }
        }
        var deletions = acls.delete(valid).iterator();
        DeleteAclsResponseData data = new DeleteAclsResponseData();
        for (DeleteAclsResponseData.DeleteAclsFilterResult result : results) {
            data.filterResults().add(result != null ? result : toWire(deletions.next()));
        }
        return CompletableFuture.completedFuture(new DeleteAclsResponse(data, request.version()));
    }

    private static DeleteAclsResponseData.DeleteAclsFilterResult toWire(AclAdminUseCase.Deletion deletion) {
        DeleteAclsResponseData.DeleteAclsFilterResult result = new DeleteAclsResponseData.DeleteAclsFilterResult()
                .setErrorCode(ErrorMapping.toErrors(deletion.outcome().error()).code())
                .setErrorMessage(deletion.outcome().message());
        deletion.deleted().forEach(acl -> result.matchingAcls().add(
                DeleteAclsResponse.matchingAcl(AclMapping.toWire(acl), ApiError.NONE)));
        return result;
    }
}
