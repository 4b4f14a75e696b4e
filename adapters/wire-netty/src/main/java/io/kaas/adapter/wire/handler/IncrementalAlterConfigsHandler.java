package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.ConfigMapping;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;

/**
 * IncrementalAlterConfigs (key 44, KIP-339): SET, DELETE, APPEND and SUBTRACT per key; each
 * resource's operations apply all or nothing.
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler<IncrementalAlterConfigsRequest> {
    private final ConfigUseCase configs;

    public IncrementalAlterConfigsHandler(ConfigUseCase configs) {
        this.configs = configs;
    }

    @Override
    public CompletionStage<IncrementalAlterConfigsResponse> handle(RequestContext context,
                                                                   IncrementalAlterConfigsRequest request) {
        IncrementalAlterConfigsRequestData data = request.data();
        List<IncrementalAlterConfigsRequestData.AlterConfigsResource> resources = new ArrayList<>(data.resources());
        Set<Integer> duplicated = ConfigResources.duplicated(resources,
                IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceType,
                IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceName);
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        for (int i = 0; i < resources.size(); i++) {
            IncrementalAlterConfigsRequestData.AlterConfigsResource resource = resources.get(i);
            Outcome altered = duplicated.contains(i)
                    ? new Outcome(KafkaError.INVALID_REQUEST, ConfigResources.DUPLICATE)
                    : alter(resource, data.validateOnly());
            response.responses().add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName())
                    .setErrorCode(altered.error().code())
                    .setErrorMessage(altered.message()));
        }
        return CompletableFuture.completedFuture(new IncrementalAlterConfigsResponse(response));
    }

    private Outcome alter(IncrementalAlterConfigsRequestData.AlterConfigsResource resource,
                                        boolean validateOnly) {
        ConfigUseCase.Resource target = ConfigMapping.resource(resource.resourceType(), resource.resourceName());
        if (target.type() == ConfigResourceType.UNKNOWN) {
            return new Outcome(KafkaError.INVALID_REQUEST, "Unknown resource type " + resource.resourceType());
        }
        List<TopicConfigs.Change> changes = new ArrayList<>();
        for (IncrementalAlterConfigsRequestData.AlterableConfig config : resource.configs()) {
            Optional<AlterOp> op = AlterOp.forId(config.configOperation());
            if (op.isEmpty()) {
                return new Outcome(KafkaError.INVALID_REQUEST,
                        "Unknown operations type " + config.configOperation());
            }
            changes.add(new TopicConfigs.Change(config.name(), op.get(), config.value()));
        }
        return configs.alterIncremental(target, changes, validateOnly);
    }
}
