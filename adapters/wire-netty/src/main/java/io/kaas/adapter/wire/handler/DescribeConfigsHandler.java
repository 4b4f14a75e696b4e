package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ConfigMapping;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;

/**
 * DescribeConfigs (key 32): topic configs with their sources and synonyms (v1+) and documentation
 * (v3+), and the broker's read-only settings. v0 has no sources: its {@code is_default} flag says
 * whether a value is a default.
 */
public final class DescribeConfigsHandler implements ApiHandler<DescribeConfigsRequest> {
    private final ConfigUseCase configs;
    private final Access access;

    public DescribeConfigsHandler(ConfigUseCase configs, Access access) {
        this.configs = configs;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeConfigsResponse> handle(RequestContext context, DescribeConfigsRequest request) {
        DescribeConfigsRequestData data = request.data();
        DescribeConfigsResponseData response = new DescribeConfigsResponseData();
        for (DescribeConfigsRequestData.DescribeConfigsResource resource : data.resources()) {
            DescribeConfigsResponseData.DescribeConfigsResult result = new DescribeConfigsResponseData.DescribeConfigsResult()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            ConfigUseCase.Resource target = ConfigMapping.resource(resource.resourceType(), resource.resourceName());
            KafkaError refusal = target.type() == ConfigResourceType.UNKNOWN ? null
                    : ConfigResources.refusal(access, context, target, AclOperation.DESCRIBE_CONFIGS);
            ConfigUseCase.Described described = target.type() == ConfigResourceType.UNKNOWN
                    ? ConfigUseCase.Described.failed(KafkaError.INVALID_REQUEST,
                            "Unsupported resource type: " + resource.resourceType())
                    : refusal != null ? ConfigUseCase.Described.failed(refusal, ErrorMapping.toErrors(refusal).message())
                    : configs.describe(new ConfigUseCase.DescribeCommand(target, resource.configurationKeys(),
                            data.includeSynonyms(), data.includeDocumentation()));
            result.setErrorCode(described.error().code()).setErrorMessage(described.message());
            described.entries().forEach(e -> result.configs().add(ConfigMapping.describeEntry(e, request.version())));
            response.results().add(result);
        }
        return CompletableFuture.completedFuture(new DescribeConfigsResponse(response));
    }
}
