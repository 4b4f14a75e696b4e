package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupDescription;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclResourceType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;

/**
 * DescribeGroups (key 15), v0-5: state, protocol, and members with their hosts; member metadata
 * and assignments while stable. An unknown group is Dead. v3+ may ask for the authorized
 * operations (every group operation, with no authorizer); v4+ show group.instance.id.
 */
public final class DescribeGroupsHandler implements ApiHandler<DescribeGroupsRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public DescribeGroupsHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeGroupsResponse> handle(RequestContext context, DescribeGroupsRequest request) {
        boolean withOperations = request.data().includeAuthorizedOperations();
        List<String> allowed = new ArrayList<>();
        Set<String> refused = new HashSet<>();
        for (String groupId : request.data().groups()) {
            (access.group(context, AclOperation.DESCRIBE, groupId) ? allowed : refused).add(groupId);
        }
        return context.resume(groups.describeGroups(allowed)).thenApply(described -> {
            // one description per allowed group, in order: the refused ones go back in between, where asked for
            Iterator<GroupDescription> next = described.iterator();
            DescribeGroupsResponseData data = new DescribeGroupsResponseData();
            for (String groupId : request.data().groups()) {
                if (refused.contains(groupId)) {
                    data.groups().add(DescribeGroupsResponse.groupError(groupId, Errors.GROUP_AUTHORIZATION_FAILED));
                } else {
                    GroupDescription d = next.next();
                    data.groups().add(toWire(d, access.operations(context, withOperations, AclResourceType.GROUP,
                            d.groupId())));
                }
            }
            return new DescribeGroupsResponse(data);
        });
    }

    private static DescribeGroupsResponseData.DescribedGroup toWire(GroupDescription d, int authorizedOperations) {
        if (d.error() != KafkaError.NONE) {
            return DescribeGroupsResponse.groupError(d.groupId(), ErrorMapping.toErrors(d.error()));
        }
        DescribeGroupsResponseData.DescribedGroup group = new DescribeGroupsResponseData.DescribedGroup()
                .setGroupId(d.groupId())
                .setGroupState(d.state().displayName())
                .setProtocolType(d.protocolType())
                .setProtocolData(d.protocol())
                .setAuthorizedOperations(authorizedOperations);
        d.members().forEach(m -> group.members().add(new DescribeGroupsResponseData.DescribedGroupMember()
                .setMemberId(m.memberId())
                .setGroupInstanceId(m.groupInstanceId())
                .setClientId(m.clientId())
                .setClientHost(m.clientHost())
                .setMemberMetadata(m.metadata())
                .setMemberAssignment(m.assignment())));
        return group;
    }
}
