package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    private final Access access;

    public IncrementalAlterConfigsHandler(ConfigUseCase configs, Access access) {
        this.configs = configs;
        this.access = access;
    }

    @Override
    public CompletionStage<IncrementalAlterConfigsResponse> handle(RequestContext context,
                                                                   IncrementalAlterConfigsRequest request) {
        IncrementalAlterConfigsRequestData data = request.data();
        List<IncrementalAlterConfigsRequestData.AlterConfigsResource> resources = new ArrayList<>(data.resources());
        List<Outcome> outcomes = ConfigResources.alterEach(resources,
                IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceType,
                IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceName,
                target -> ConfigResources.refusal(access, context, target, AclOperation.ALTER_CONFIGS),
                (resource, target) -> alter(resource, target, data.validateOnly()));
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        for (int i = 0; i < resources.size(); i++) {
            response.responses().add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resources.get(i).resourceType())
                    .setResourceName(resources.get(i).resourceName())
                    .setErrorCode(outcomes.get(i).error().code())
                    .setErrorMessage(outcomes.get(i).message()));
        }
        return CompletableFuture.completedFuture(new IncrementalAlterConfigsResponse(response));
    }

    private Outcome alter(IncrementalAlterConfigsRequestData.AlterConfigsResource resource,
                          ConfigUseCase.Resource target, boolean validateOnly) {
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
