package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.junit.jupiter.api.BeforeEach;

/** The legacy AlterConfigs at every served version: a resource's whole config set is replaced. */
class AlterConfigsHandlerTest extends HandlerTestBase {
    @BeforeEach
    void createTopics() {
        broker.createTopic("orders", 1, Map.of("retention.ms", "60000", "segment.ms", "1000"));
    }

    @ServedVersionsTest(ApiKeys.ALTER_CONFIGS)
    void replacesATopicsConfigs(short version) {
        AlterConfigsResponse response = alter(version, false, resource(ConfigResource.Type.TOPIC, "orders",
                "max.message.bytes", "2000", "retention.ms", "120000"));

        assertThat(response.data().responses()).singleElement().satisfies(r -> {
            assertThat(r.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(r.resourceName()).isEqualTo("orders");
            assertThat(r.resourceType()).isEqualTo(ConfigResource.Type.TOPIC.id());
        });
        assertThat(broker.topics().byName("orders").orElseThrow().configs())
                .isEqualTo(Map.of("max.message.bytes", "2000", "retention.ms", "120000"));
    }

    @ServedVersionsTest(ApiKeys.ALTER_CONFIGS)
    void validateOnlyChangesNothing(short version) {
        AlterConfigsResponse response = alter(version, true, resource(ConfigResource.Type.TOPIC, "orders",
                "max.message.bytes", "2000"));

        assertThat(response.data().responses().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(broker.topics().byName("orders").orElseThrow().configs()).containsEntry("segment.ms", "1000");
    }

    @ServedVersionsTest(ApiKeys.ALTER_CONFIGS)
    void eachResourceSucceedsOrFailsOnItsOwn(short version) {
        broker.createTopic("audit", 1);
        AlterConfigsResponse response = alter(version, false,
                resource(ConfigResource.Type.TOPIC, "orders", "retention.ms", "soon"),
                resource(ConfigResource.Type.TOPIC, "audit", "retention.ms", "1"),
                resource(ConfigResource.Type.TOPIC, "missing", "retention.ms", "1"),
                resource(ConfigResource.Type.BROKER, "1", "num.partitions", "3"),
                resource(ConfigResource.Type.BROKER_LOGGER, "1", "root", "DEBUG"));

        assertThat(response.data().responses()).extracting(AlterConfigsResponseData.AlterConfigsResourceResponse::resourceName,
                AlterConfigsResponseData.AlterConfigsResourceResponse::errorCode,
                AlterConfigsResponseData.AlterConfigsResourceResponse::errorMessage).containsExactly(
                tuple("orders", Errors.INVALID_CONFIG.code(),
                        "Invalid value soon for configuration retention.ms: Not a number of type LONG"),
                tuple("audit", Errors.NONE.code(), null),
                tuple("missing", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), "The topic 'missing' does not exist."),
                tuple("1", Errors.INVALID_REQUEST.code(), "Cannot update these configs dynamically: Set(num.partitions)"),
                tuple("1", Errors.INVALID_REQUEST.code(), "Unknown resource type 8"));
        assertThat(broker.topics().byName("audit").orElseThrow().configs()).isEqualTo(Map.of("retention.ms", "1"));
        assertThat(broker.topics().byName("orders").orElseThrow().configs()).containsEntry("retention.ms", "60000");
    }

    @ServedVersionsTest(ApiKeys.ALTER_CONFIGS)
    void aResourceNamedTwiceIsRefusedBothTimes(short version) {
        AlterConfigsResponse response = alter(version, false,
                resource(ConfigResource.Type.TOPIC, "orders", "retention.ms", "1"),
                resource(ConfigResource.Type.TOPIC, "orders", "retention.ms", "2"));

        assertThat(response.data().responses()).hasSize(2).allSatisfy(r -> {
            assertThat(r.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(r.errorMessage()).isEqualTo("Each resource must appear at most once.");
        });
        assertThat(broker.topics().byName("orders").orElseThrow().configs()).containsEntry("retention.ms", "60000");
    }

    private AlterConfigsResponse alter(short version, boolean validateOnly, AlterConfigsRequestData.AlterConfigsResource... resources) {
        AlterConfigsRequestData data = new AlterConfigsRequestData().setValidateOnly(validateOnly);
        for (AlterConfigsRequestData.AlterConfigsResource r : resources) {
            data.resources().mustAdd(r);
        }
        return wire.roundTrip(new AlterConfigsRequest(data, version));
    }

    private static AlterConfigsRequestData.AlterConfigsResource resource(ConfigResource.Type type, String name,
                                                                         String... keysAndValues) {
        AlterConfigsRequestData.AlterConfigsResource resource = new AlterConfigsRequestData.AlterConfigsResource()
                .setResourceType(type.id()).setResourceName(name);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            resource.configs().mustAdd(new AlterConfigsRequestData.AlterableConfig().setName(keysAndValues[i])
                    .setValue(keysAndValues[i + 1]));
        }
        return resource;
    }
}
