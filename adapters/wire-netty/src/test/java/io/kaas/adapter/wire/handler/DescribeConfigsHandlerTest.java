package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.config.TopicConfigKeys;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.junit.jupiter.api.BeforeEach;

/**
 * DescribeConfigs at every served version: sources and synonyms from v1, documentation and types
 * from v3; v0 only tells defaults from set values (kafka-clients turns that into a source).
 */
class DescribeConfigsHandlerTest extends HandlerTestBase {
    @BeforeEach
    void createTopics() {
        broker.createTopic("orders", 1, Map.of("retention.ms", "60000", "cleanup.policy", "compact , delete"));
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CONFIGS)
    void aTopicReportsEveryKeyWithItsOverrides(short version) {
        DescribeConfigsResponseData.DescribeConfigsResult result = only(describe(version, topic("orders", null)));

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.configs()).extracting(DescribeConfigsResponseData.DescribeConfigsResourceResult::name)
                .containsExactlyElementsOf(TopicConfigKeys.sortedNames());
        DescribeConfigsResponseData.DescribeConfigsResourceResult retention = config(result, "retention.ms");
        assertThat(retention.value()).isEqualTo("60000");
        assertThat(retention.readOnly()).isFalse();
        assertThat(retention.isSensitive()).isFalse();
        assertThat(retention.configSource()).isEqualTo(ConfigSource.TOPIC_CONFIG.id());
        assertThat(config(result, "cleanup.policy").value()).isEqualTo("compact,delete");
        DescribeConfigsResponseData.DescribeConfigsResourceResult segment = config(result, "segment.bytes");
        assertThat(segment.value()).isEqualTo("1073741824");
        assertThat(segment.configSource()).isEqualTo(ConfigSource.DEFAULT_CONFIG.id());
        assertThat(config(result, "max.message.bytes").configSource())
                .isEqualTo(version == 0 ? ConfigSource.TOPIC_CONFIG.id() /* v0 knows only "not a default" */
                        : ConfigSource.STATIC_BROKER_CONFIG.id());
        if (version >= 1) {
            assertThat(retention.synonyms()).extracting(s -> s.name(), s -> s.source()).containsExactly(
                    tuple("retention.ms", ConfigSource.TOPIC_CONFIG.id()),
                    tuple("log.retention.ms", ConfigSource.DEFAULT_CONFIG.id()));
        }
        if (version >= 3) {
            assertThat(retention.configType()).isEqualTo(ConfigType.LONG.id());
            assertThat(retention.documentation()).contains("retention sweep");
            assertThat(config(result, "min.insync.replicas").documentation()).contains("Inert");
        }
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CONFIGS)
    void theKeysFilterNarrowsTheAnswer(short version) {
        DescribeConfigsResponseData.DescribeConfigsResult result =
                only(describe(version, topic("orders", List.of("retention.ms", "segment.ms"))));

        assertThat(result.configs()).extracting(DescribeConfigsResponseData.DescribeConfigsResourceResult::name)
                .containsExactly("retention.ms", "segment.ms");
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CONFIGS)
    void unknownTopicsAndUnsupportedResourcesAreErrorsOfTheirOwn(short version) {
        DescribeConfigsResponse response = describe(version, topic("missing", null), topic("bad/name", null),
                resource(ConfigResource.Type.BROKER_LOGGER, "1", null), resource((byte) 99, "x"), topic("orders", null));

        assertThat(response.data().results()).extracting(DescribeConfigsResponseData.DescribeConfigsResult::errorCode)
                .containsExactly(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), Errors.INVALID_TOPIC_EXCEPTION.code(),
                        Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code(), Errors.NONE.code());
        assertThat(response.data().results().get(0).configs()).isEmpty();
        assertThat(response.data().results().get(3).errorMessage()).isEqualTo("Unsupported resource type: 99");
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CONFIGS)
    void thisBrokerReportsItsStartupSettingsReadOnlyAndApachesDynamicOnesWritable(short version) {
        DescribeConfigsResponseData.DescribeConfigsResult result = only(describe(version,
                resource(ConfigResource.Type.BROKER, Integer.toString(InMemoryBroker.BROKER_ID), null)));

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(config(result, "broker.id").readOnly()).isTrue();
        assertThat(config(result, "sasl.kerberos.min.time.before.relogin").readOnly()).isFalse();
        DescribeConfigsResponseData.DescribeConfigsResourceResult maxBytes = config(result, "message.max.bytes");
        assertThat(maxBytes.value()).isEqualTo(Integer.toString(InMemoryBroker.MESSAGE_MAX_BYTES));
        assertThat(maxBytes.configSource()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG.id());
        assertThat(config(result, "log.cleanup.policy").configSource()).isEqualTo(ConfigSource.DEFAULT_CONFIG.id());
        if (version >= 1) {
            assertThat(maxBytes.synonyms()).extracting(s -> s.value()).containsExactly(
                    Integer.toString(InMemoryBroker.MESSAGE_MAX_BYTES), "1048588");
        }
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CONFIGS)
    void theClusterWideDefaultsAreEmptyAndOtherBrokersRefused(short version) {
        DescribeConfigsResponse response = describe(version, resource(ConfigResource.Type.BROKER, "", null),
                resource(ConfigResource.Type.BROKER, "42", null));

        assertThat(response.data().results().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().results().get(0).configs()).isEmpty();
        assertThat(response.data().results().get(1).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(response.data().results().get(1).errorMessage())
                .isEqualTo("Unexpected broker id, expected 1 or empty string, but received 42");
    }

    private DescribeConfigsResponse describe(short version, DescribeConfigsRequestData.DescribeConfigsResource... resources) {
        DescribeConfigsRequestData data = new DescribeConfigsRequestData().setResources(List.of(resources))
                .setIncludeSynonyms(version >= 1)
                .setIncludeDocumentation(version >= 3);
        return wire.roundTrip(new DescribeConfigsRequest.Builder(data).build(version));
    }

    private static DescribeConfigsRequestData.DescribeConfigsResource topic(String name, List<String> keys) {
        return resource(ConfigResource.Type.TOPIC, name, keys);
    }

    private static DescribeConfigsRequestData.DescribeConfigsResource resource(ConfigResource.Type type, String name,
                                                                               List<String> keys) {
        return new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(type.id())
                .setResourceName(name).setConfigurationKeys(keys);
    }

    private static DescribeConfigsRequestData.DescribeConfigsResource resource(byte type, String name) {
        return new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(type).setResourceName(name)
                .setConfigurationKeys(null);
    }

    private static DescribeConfigsResponseData.DescribeConfigsResult only(DescribeConfigsResponse response) {
        assertThat(response.data().results()).hasSize(1);
        return response.data().results().get(0);
    }

    private static DescribeConfigsResponseData.DescribeConfigsResourceResult config(
            DescribeConfigsResponseData.DescribeConfigsResult result, String name) {
        return result.configs().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
