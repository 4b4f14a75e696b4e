package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;

/**
 * AlterConfigs (key 33), the legacy whole-set form: each resource's configs are replaced by the
 * ones sent, so a key left out returns to its default.
 */
public final class AlterConfigsHandler implements ApiHandler<AlterConfigsRequest> {
    private final ConfigUseCase configs;
    private final Access access;

    public AlterConfigsHandler(ConfigUseCase configs, Access access) {
        this.configs = configs;
        this.access = access;
    }

    @Override
    public CompletionStage<AlterConfigsResponse> handle(RequestContext context, AlterConfigsRequest request) {
        AlterConfigsRequestData data = request.data();
        List<AlterConfigsRequestData.AlterConfigsResource> resources = new ArrayList<>(data.resources());
        List<Outcome> outcomes = ConfigResources.alterEach(resources,
                AlterConfigsRequestData.AlterConfigsResource::resourceType,
                AlterConfigsRequestData.AlterConfigsResource::resourceName,
                target -> ConfigResources.refusal(access, context, target, AclOperation.ALTER_CONFIGS),
                (resource, target) -> configs.alterAll(target, settings(resource), data.validateOnly()));
        AlterConfigsResponseData response = new AlterConfigsResponseData();
        for (int i = 0; i < resources.size(); i++) {
            response.responses().add(new AlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resources.get(i).resourceType())
                    .setResourceName(resources.get(i).resourceName())
                    .setErrorCode(outcomes.get(i).error().code())
                    .setErrorMessage(outcomes.get(i).message()));
        }
        return CompletableFuture.completedFuture(new AlterConfigsResponse(response));
    }

    private static List<ConfigUseCase.Setting> settings(AlterConfigsRequestData.AlterConfigsResource resource) {
        List<ConfigUseCase.Setting> settings = new ArrayList<>();
        resource.configs().forEach(c -> settings.add(new ConfigUseCase.Setting(c.name(), c.value())));
        return settings;
    }
}
