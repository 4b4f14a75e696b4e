package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.AuthorizedOperations;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.GroupDescription;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;

/**
 * DescribeGroups (key 15), v0-5: state, protocol, and members with their hosts; member metadata
 * and assignments while stable. An unknown group is Dead. v3+ may ask for the authorized
 * operations (every group operation, with no authorizer); v4+ show group.instance.id.
 */
public final class DescribeGroupsHandler implements ApiHandler<DescribeGroupsRequest> {
    private final GroupCoordinator groups;

    public DescribeGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<DescribeGroupsResponse> handle(RequestContext context, DescribeGroupsRequest request) {
        boolean withOperations = request.data().includeAuthorizedOperations();
        return context.resume(groups.describeGroups(request.data().groups())).thenApply(described -> {
            DescribeGroupsResponseData data = new DescribeGroupsResponseData();
            described.forEach(d -> data.groups().add(toWire(d, withOperations)));
            return new DescribeGroupsResponse(data);
        });
    }

    private static DescribeGroupsResponseData.DescribedGroup toWire(GroupDescription d, boolean withOperations) {
        if (d.error() != KafkaError.NONE) {
            return DescribeGroupsResponse.groupError(d.groupId(), ErrorMapping.toErrors(d.error()));
        }
        DescribeGroupsResponseData.DescribedGroup group = new DescribeGroupsResponseData.DescribedGroup()
                .setGroupId(d.groupId())
                .setGroupState(d.state().displayName())
                .setProtocolType(d.protocolType())
                .setProtocolData(d.protocol())
                .setAuthorizedOperations(AuthorizedOperations.group(withOperations));
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
