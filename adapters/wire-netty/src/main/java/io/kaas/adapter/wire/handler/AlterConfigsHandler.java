package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ConfigMapping;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    public AlterConfigsHandler(ConfigUseCase configs) {
        this.configs = configs;
    }

    @Override
    public CompletionStage<AlterConfigsResponse> handle(RequestContext context, AlterConfigsRequest request) {
        AlterConfigsRequestData data = request.data();
        List<AlterConfigsRequestData.AlterConfigsResource> resources = new ArrayList<>(data.resources());
        Set<Integer> duplicated = ConfigResources.duplicated(resources,
                AlterConfigsRequestData.AlterConfigsResource::resourceType,
                AlterConfigsRequestData.AlterConfigsResource::resourceName);
        AlterConfigsResponseData response = new AlterConfigsResponseData();
        for (int i = 0; i < resources.size(); i++) {
            AlterConfigsRequestData.AlterConfigsResource resource = resources.get(i);
            Outcome altered;
            ConfigUseCase.Resource target = ConfigMapping.resource(resource.resourceType(), resource.resourceName());
            if (duplicated.contains(i)) {
                altered = new Outcome(KafkaError.INVALID_REQUEST, ConfigResources.DUPLICATE);
            } else if (target.type() == ConfigResourceType.UNKNOWN) {
                altered = new Outcome(KafkaError.INVALID_REQUEST,
                        "Unknown resource type " + resource.resourceType());
            } else {
                List<ConfigUseCase.Setting> settings = new ArrayList<>();
                resource.configs().forEach(c -> settings.add(new ConfigUseCase.Setting(c.name(), c.value())));
                altered = configs.alterAll(target, settings, data.validateOnly());
            }
            response.responses().add(new AlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName())
                    .setErrorCode(altered.error().code())
                    .setErrorMessage(altered.message()));
        }
        return CompletableFuture.completedFuture(new AlterConfigsResponse(response));
    }
}
