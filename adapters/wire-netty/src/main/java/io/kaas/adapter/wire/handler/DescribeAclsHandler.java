package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.AclMapping;
import io.kaas.application.port.in.AclAdminUseCase;
import io.kaas.domain.security.AclOperation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;

/**
 * DescribeAcls (key 29), v0-3: the ACLs the filter selects, grouped by resource pattern, from what this
 * broker enforces. As Apache: DESCRIBE on the cluster first, then SECURITY_DISABLED without an authorizer.
 * A v0 filter is literal-only (the codec pins it, as pre-KIP-290).
 */
public final class DescribeAclsHandler implements ApiHandler<DescribeAclsRequest> {
    private final AclAdminUseCase acls;
    private final Access access;

    public DescribeAclsHandler(AclAdminUseCase acls, Access access) {
        this.acls = acls;
        this.access = access;
    }

    @Override
    public CompletionStage<AbstractResponse> handle(RequestContext context, DescribeAclsRequest request) {
        Optional<CompletionStage<AbstractResponse>> refused =
                Refused.aclAdmin(access, context, request, AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            return refused.get();
        }
        var matching = acls.describe(AclMapping.fromWire(request.filter())).stream().map(AclMapping::toWire).toList();
        return CompletableFuture.completedFuture(new DescribeAclsResponse(new DescribeAclsResponseData()
                .setResources(DescribeAclsResponse.aclsResources(matching)), request.version()));
    }
}
