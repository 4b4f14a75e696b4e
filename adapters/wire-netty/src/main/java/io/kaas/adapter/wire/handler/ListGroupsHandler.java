package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.security.AclOperation;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;

/**
 * ListGroups (key 16), v0-4; v4 filters by state (exact state names, as Apache). As Apache: every group with
 * DESCRIBE on the cluster, else only the groups the principal may describe.
 */
public final class ListGroupsHandler implements ApiHandler<ListGroupsRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public ListGroupsHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<ListGroupsResponse> handle(RequestContext context, ListGroupsRequest request) {
        Set<String> states = request.data().statesFilter() == null ? Set.of() : Set.copyOf(request.data().statesFilter());
        return context.resume(groups.listGroups(states)).thenApply(result -> {
            ListGroupsResponseData data = new ListGroupsResponseData().setErrorCode(ErrorMapping.toErrors(result.error()).code());
            boolean allGroups = access.cluster(context, AclOperation.DESCRIBE);
            result.groups().stream().filter(g -> allGroups || access.group(context, AclOperation.DESCRIBE, g.groupId()))
                    .forEach(g -> data.groups().add(new ListGroupsResponseData.ListedGroup()
                    .setGroupId(g.groupId()).setProtocolType(g.protocolType()).setGroupState(g.state().displayName())));
            return new ListGroupsResponse(data);
        });
    }
}
