package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.group.JoinResponse;
import io.kaas.domain.group.Protocol;
import io.kaas.domain.security.AclOperation;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;

/**
 * JoinGroup (key 11), v0-9. The response usually comes when the rebalance completes, on another
 * thread; the event loop is not held. v0 has no rebalance timeout (the session timeout stands in,
 * as kafka-clients' parser sets it); v4+ dynamic members get MEMBER_ID_REQUIRED first (KIP-394);
 * v5+ carry group.instance.id (KIP-345); v8+ a reason (KIP-800); v9 skip_assignment.
 */
public final class JoinGroupHandler implements ApiHandler<JoinGroupRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public JoinGroupHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<JoinGroupResponse> handle(RequestContext context, JoinGroupRequest request) {
        if (!access.group(context, AclOperation.READ, request.data().groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        JoinGroupRequestData data = request.data();
        short version = request.version();
        List<Protocol> protocols = data.protocols().stream().map(p -> new Protocol(p.name(), p.metadata())).toList();
        GroupCoordinator.JoinRequest join = new GroupCoordinator.JoinRequest(data.groupId(), data.memberId(),
                data.groupInstanceId(), JoinGroupRequest.requiresKnownMemberId(version) && data.groupInstanceId() == null,
                JoinGroupRequest.supportsSkippingAssignment(version), context.clientId(), context.clientHost(),
                data.rebalanceTimeoutMs(), data.sessionTimeoutMs(), data.protocolType(), protocols, data.reason());
        return context.resume(groups.joinGroup(join)).thenApply(response -> new JoinGroupResponse(toWire(response), version));
    }

    private static JoinGroupResponseData toWire(JoinResponse response) {
        JoinGroupResponseData data = new JoinGroupResponseData()
                .setErrorCode(ErrorMapping.toErrors(response.error()).code())
                .setGenerationId(response.generationId())
                .setProtocolType(response.protocolType())
                .setProtocolName(response.protocolName())
                .setLeader(response.leaderId())
                .setSkipAssignment(response.skipAssignment())
                .setMemberId(response.memberId());
        response.members().forEach(m -> data.members().add(new JoinGroupResponseData.JoinGroupResponseMember()
                .setMemberId(m.memberId()).setGroupInstanceId(m.groupInstanceId()).setMetadata(m.metadata())));
        return data;
    }
}
