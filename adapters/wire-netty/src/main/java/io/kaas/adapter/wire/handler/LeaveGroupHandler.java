package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.group.GroupCommand;
import io.kaas.domain.security.AclOperation;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.LeaveGroupRequest;
import org.apache.kafka.common.requests.LeaveGroupResponse;

/**
 * LeaveGroup (key 13), v0-5. v0-2 name one member and carry its error at the top level; v3+ batch
 * members, a static one possibly by instance id alone (KIP-345 admin removal); v5 adds reasons.
 */
public final class LeaveGroupHandler implements ApiHandler<LeaveGroupRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public LeaveGroupHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<LeaveGroupResponse> handle(RequestContext context, LeaveGroupRequest request) {
        if (!access.group(context, AclOperation.READ, request.data().groupId())) {
            return Refused.with(request, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        List<GroupCommand.LeavingMember> members = request.members().stream()
                .map(m -> new GroupCommand.LeavingMember(m.memberId(), m.groupInstanceId(), m.reason()))
                .toList();
        return context.resume(groups.leaveGroup(request.data().groupId(), members)).thenApply(result -> new LeaveGroupResponse(
                result.members().stream().map(m -> new LeaveGroupResponseData.MemberResponse()
                        .setMemberId(m.memberId())
                        .setGroupInstanceId(m.groupInstanceId())
                        .setErrorCode(ErrorMapping.toErrors(m.error()).code())).toList(),
                ErrorMapping.toErrors(result.error()), 0, request.version()));
    }
}
