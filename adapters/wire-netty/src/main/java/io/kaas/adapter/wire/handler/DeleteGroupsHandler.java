package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.requests.DeleteGroupsResponse;

/** DeleteGroups (key 42), v0-2: empty groups go with their offsets; others are NON_EMPTY_GROUP. */
public final class DeleteGroupsHandler implements ApiHandler<DeleteGroupsRequest> {
    private final GroupCoordinator groups;

    public DeleteGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public CompletionStage<DeleteGroupsResponse> handle(RequestContext context, DeleteGroupsRequest request) {
        return context.resume(groups.deleteGroups(request.data().groupsNames())).thenApply(results -> {
            DeleteGroupsResponseData data = new DeleteGroupsResponseData();
            results.forEach((groupId, error) -> data.results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                    .setGroupId(groupId).setErrorCode(ErrorMapping.toErrors(error).code())));
            return new DeleteGroupsResponse(data);
        });
    }
}
