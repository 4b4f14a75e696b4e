package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;

/** ListGroups (key 16), v0-4; v4 filters by state (exact state names, as Apache). */
public final class ListGroupsHandler implements ApiHandler<ListGroupsRequest> {
    private final GroupCoordinator groups;

    public ListGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<ListGroupsResponse> handle(RequestContext context, ListGroupsRequest request) {
        Set<String> states = request.data().statesFilter() == null ? Set.of() : Set.copyOf(request.data().statesFilter());
        return context.resume(groups.listGroups(states)).thenApply(result -> {
            ListGroupsResponseData data = new ListGroupsResponseData().setErrorCode(ErrorMapping.toErrors(result.error()).code());
            result.groups().forEach(g -> data.groups().add(new ListGroupsResponseData.ListedGroup()
                    .setGroupId(g.groupId()).setProtocolType(g.protocolType()).setGroupState(g.state().displayName())));
            return new ListGroupsResponse(data);
        });
    }
}
