package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;

/** Heartbeat (key 12), v0-4; v3+ carries group.instance.id, checked for fencing (KIP-345). */
public final class HeartbeatHandler implements ApiHandler<HeartbeatRequest> {
    private final GroupCoordinator groups;

    public HeartbeatHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<HeartbeatResponse> handle(RequestContext context, HeartbeatRequest request) {
        HeartbeatRequestData data = request.data();
        return context.resume(groups.heartbeat(data.groupId(), data.memberId(), data.groupInstanceId(), data.generationId()))
                .thenApply(error -> new HeartbeatResponse(new HeartbeatResponseData()
                        .setErrorCode(ErrorMapping.toErrors(error).code())));
    }
}
