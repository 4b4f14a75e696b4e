package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.requests.DeleteGroupsResponse;

/**
 * DeleteGroups (key 42), v0-2: empty groups go with their offsets; others are NON_EMPTY_GROUP. DELETE on each
 * group, else GROUP_AUTHORIZATION_FAILED for it, as Apache.
 */
public final class DeleteGroupsHandler implements ApiHandler<DeleteGroupsRequest> {
    private final GroupCoordinator groups;
    private final Access access;

    public DeleteGroupsHandler(GroupCoordinator groups, Access access) {
        this.groups = groups;
        this.access = access;
    }

    @Override
    public CompletionStage<DeleteGroupsResponse> handle(RequestContext context, DeleteGroupsRequest request) {
        List<String> allowed = new ArrayList<>();
        Map<String, KafkaError> refused = new LinkedHashMap<>();
        for (String groupId : request.data().groupsNames()) {
            if (access.group(context, AclOperation.DELETE, groupId)) {
                allowed.add(groupId);
            } else {
                refused.put(groupId, KafkaError.GROUP_AUTHORIZATION_FAILED);
            }
        }
        return context.resume(groups.deleteGroups(allowed)).thenApply(deleted -> {
            Map<String, KafkaError> results = new LinkedHashMap<>(deleted);
            results.putAll(refused);
            DeleteGroupsResponseData data = new DeleteGroupsResponseData();
            results.forEach((groupId, error) -> data.results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                    .setGroupId(groupId).setErrorCode(ErrorMapping.toErrors(error).code())));
            return new DeleteGroupsResponse(data);
        });
    }
}
