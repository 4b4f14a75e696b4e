package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;

/**
 * SyncGroup (key 14), v0-5. Followers' responses wait for the leader's assignment. From v5 the
 * protocol type and name are mandatory and must match the group's (INCONSISTENT_GROUP_PROTOCOL).
 */
public final class SyncGroupHandler implements ApiHandler<SyncGroupRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public SyncGroupHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<SyncGroupResponse> handle(RequestContext context, SyncGroupRequest request) {
        if (!access.group(context, AclOperation.READ, request.data().groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        if (!request.areMandatoryProtocolTypeAndNamePresent()) {
            return CompletableFuture.completedFuture(new SyncGroupResponse(new SyncGroupResponseData()
                    .setErrorCode(Errors.INCONSISTENT_GROUP_PROTOCOL.code())));
        }
        SyncGroupRequestData data = request.data();
        Map<String, byte[]> assignments = new HashMap<>();
        data.assignments().forEach(a -> assignments.put(a.memberId(), a.assignment()));
        return context.resume(groups.syncGroup(new GroupCoordinator.SyncRequest(data.groupId(), data.memberId(), data.groupInstanceId(),
                        data.generationId(), data.protocolType(), data.protocolName(), assignments)))
                .thenApply(response -> new SyncGroupResponse(new SyncGroupResponseData()
                        .setErrorCode(ErrorMapping.toErrors(response.error()).code())
                        .setProtocolType(response.protocolType())
                        .setProtocolName(response.protocolName())
                        .setAssignment(response.assignment())));
    }
}
