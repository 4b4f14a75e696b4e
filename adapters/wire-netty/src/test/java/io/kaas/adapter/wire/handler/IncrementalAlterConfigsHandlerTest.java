package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import java.util.Map;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.junit.jupiter.api.BeforeEach;

/** IncrementalAlterConfigs at every served version: SET, DELETE, APPEND and SUBTRACT per key. */
class IncrementalAlterConfigsHandlerTest extends HandlerTestBase {
    @BeforeEach
    void createTopics() {
        broker.createTopic("orders", 1, Map.of("retention.ms", "60000", "segment.ms", "1000"));
    }

    @ServedVersionsTest(ApiKeys.INCREMENTAL_ALTER_CONFIGS)
    void appliesEveryKindOfOperation(short version) {
        IncrementalAlterConfigsResponse response = alter(version, false, topic("orders",
                op("retention.ms", OpType.SET, "120000"),
                op("segment.ms", OpType.DELETE, null),
                op("cleanup.policy", OpType.APPEND, "compact"),
                op("follower.replication.throttled.replicas", OpType.SUBTRACT, "0:1")));

        assertThat(response.data().responses()).singleElement().satisfies(r -> {
            assertThat(r.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(r.errorMessage()).isNull();
        });
        assertThat(broker.topics().byName("orders").orElseThrow().configs()).isEqualTo(Map.of("retention.ms", "120000",
                "cleanup.policy", "delete,compact", "follower.replication.throttled.replicas", ""));
    }

    @ServedVersionsTest(ApiKeys.INCREMENTAL_ALTER_CONFIGS)
    void validateOnlyChangesNothing(short version) {
        alter(version, true, topic("orders", op("retention.ms", OpType.SET, "1")));

        assertThat(broker.topics().byName("orders").orElseThrow().configs()).containsEntry("retention.ms", "60000");
    }

    @ServedVersionsTest(ApiKeys.INCREMENTAL_ALTER_CONFIGS)
    void badOperationsFailTheirResourceOnly(short version) {
        broker.createTopic("audit", 1);
        IncrementalAlterConfigsRequestData.AlterConfigsResource unknownOp = topic("orders", op("retention.ms", OpType.SET, "1"));
        unknownOp.configs().iterator().next().setConfigOperation((byte) 7);

        IncrementalAlterConfigsResponse response = alter(version, false,
                unknownOp,
                topic("audit", op("retention.ms", OpType.APPEND, "5")),
                topic("missing", op("retention.ms", OpType.SET, "5")),
                resource(ConfigResource.Type.BROKER, "1", op("log.dirs", OpType.SET, "/elsewhere")),
                resource(ConfigResource.Type.BROKER, "", op("log.retention.ms", OpType.DELETE, null)));

        assertThat(response.data().responses()).extracting(IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse::errorCode,
                IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse::errorMessage).containsExactly(
                tuple(Errors.INVALID_REQUEST.code(), "Unknown operations type 7"),
                tuple(Errors.INVALID_CONFIG.code(), "Can't APPEND to key retention.ms because its type is not LIST."),
                tuple(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), "The topic 'missing' does not exist."),
                tuple(Errors.INVALID_REQUEST.code(), "Cannot update these configs dynamically: Set(log.dirs)"),
                tuple(Errors.NONE.code(), null));
    }

    @ServedVersionsTest(ApiKeys.INCREMENTAL_ALTER_CONFIGS)
    void aResourceNamedTwiceIsRefusedBothTimesAndTheOthersApplied(short version) {
        broker.createTopic("audit", 1);
        IncrementalAlterConfigsResponse response = alter(version, false,
                topic("orders", op("retention.ms", OpType.SET, "1")),
                topic("audit", op("retention.ms", OpType.SET, "7")),
                topic("orders", op("retention.ms", OpType.SET, "2")));

        assertThat(response.data().responses()).extracting(IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse::resourceName,
                IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse::errorCode).containsExactly(
                tuple("orders", Errors.INVALID_REQUEST.code()), tuple("audit", Errors.NONE.code()),
                tuple("orders", Errors.INVALID_REQUEST.code()));
        assertThat(broker.topics().byName("audit").orElseThrow().configs()).containsEntry("retention.ms", "7");
    }

    private IncrementalAlterConfigsResponse alter(short version, boolean validateOnly,
                                                  IncrementalAlterConfigsRequestData.AlterConfigsResource... resources) {
        IncrementalAlterConfigsRequestData data = new IncrementalAlterConfigsRequestData().setValidateOnly(validateOnly);
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource r : resources) {
            data.resources().mustAdd(r);
        }
        return wire.roundTrip(new IncrementalAlterConfigsRequest.Builder(data).build(version));
    }

    private static IncrementalAlterConfigsRequestData.AlterConfigsResource topic(String name,
                                                                                 IncrementalAlterConfigsRequestData.AlterableConfig... ops) {
        return resource(ConfigResource.Type.TOPIC, name, ops);
    }

    private static IncrementalAlterConfigsRequestData.AlterConfigsResource resource(ConfigResource.Type type, String name,
                                                                                    IncrementalAlterConfigsRequestData.AlterableConfig... ops) {
        IncrementalAlterConfigsRequestData.AlterConfigsResource resource =
                new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType(type.id()).setResourceName(name);
        for (IncrementalAlterConfigsRequestData.AlterableConfig op : ops) {
            resource.configs().mustAdd(op);
        }
        return resource;
    }

    private static IncrementalAlterConfigsRequestData.AlterableConfig op(String name, OpType type, String value) {
        return new IncrementalAlterConfigsRequestData.AlterableConfig().setName(name).setConfigOperation(type.id())
                .setValue(value);
    }
}
