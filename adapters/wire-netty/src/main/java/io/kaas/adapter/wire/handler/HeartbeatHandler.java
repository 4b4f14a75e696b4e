package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;

/** Heartbeat (key 12), v0-4; v3+ carries group.instance.id, checked for fencing (KIP-345). */
public final class HeartbeatHandler implements ApiHandler<HeartbeatRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public HeartbeatHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<HeartbeatResponse> handle(RequestContext context, HeartbeatRequest request) {
        if (!access.group(context, AclOperation.READ, request.data().groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        HeartbeatRequestData data = request.data();
        return context.resume(groups.heartbeat(data.groupId(), data.memberId(), data.groupInstanceId(), data.generationId()))
                .thenApply(error -> new HeartbeatResponse(new HeartbeatResponseData()
                        .setErrorCode(ErrorMapping.toErrors(error).code())));
    }
}
