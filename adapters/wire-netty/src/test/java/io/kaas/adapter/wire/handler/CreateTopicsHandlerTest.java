package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.TopicConfigKeys;
import io.kaas.domain.topic.Topic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;

/** CreateTopics at every served version, against the real topic service. */
class CreateTopicsHandlerTest extends HandlerTestBase {
    private static final int NO_DEFAULT = -1;

    @ServedVersionsTest(ApiKeys.CREATE_TOPICS)
    void createsATopic(short version) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(topic("orders", 3, 1).setConfigs(configs("retention.ms", "60000")));

        CreateTopicsResponseData.CreatableTopicResult result = only(wire.roundTrip(build(version, data)));

        Topic created = broker.topics().byName("orders").orElseThrow();
        assertThat(created.partitionCount()).isEqualTo(3);
        assertThat(created.configs()).containsEntry("retention.ms", "60000");
        assertThat(result.name()).isEqualTo("orders");
        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        if (version >= 1) {
            assertThat(result.errorMessage()).isNull();
        }
        assertThat(result.topicId()).isEqualTo(version >= 7 ? TopicIdMapping.toWire(created.id()) : Uuid.ZERO_UUID);
        if (version >= 5) {
            assertThat(result.numPartitions()).isEqualTo(3);
            assertThat(result.replicationFactor()).isEqualTo((short) 1);
            // Every topic config, sorted, with where its value comes from (as Apache's controller reports them).
            assertThat(result.configs()).extracting(CreateTopicsResponseData.CreatableTopicConfigs::name)
                    .containsExactlyElementsOf(TopicConfigKeys.sortedNames());
            assertThat(config(result, "retention.ms")).extracting(c -> c.value(), c -> c.configSource())
                    .containsExactly("60000", ConfigSource.DYNAMIC_TOPIC_CONFIG.id());
            assertThat(config(result, "max.message.bytes")).extracting(c -> c.value(), c -> c.configSource())
                    .containsExactly(Integer.toString(InMemoryBroker.MESSAGE_MAX_BYTES),
                            ConfigSource.STATIC_BROKER_CONFIG.id());
            assertThat(config(result, "cleanup.policy")).extracting(c -> c.value(), c -> c.configSource())
                    .containsExactly("delete", ConfigSource.DEFAULT_CONFIG.id());
            assertThat(result.configs()).allSatisfy(c -> {
                assertThat(c.readOnly()).isFalse();
                assertThat(c.isSensitive()).isFalse();
            });
        } else {
            assertThat(result.numPartitions()).isEqualTo(-1);
            assertThat(result.configs()).isEmpty();
        }
    }

    @ServedVersionsTest(value = ApiKeys.CREATE_TOPICS, from = 4) // v4: -1 asks for the broker's defaults
    void partitionsAndReplicationFactorDefaultToTheBrokers(short version) {
        CreateTopicsRequestData data = new CreateTopicsRequestData();
        data.topics().add(topic("orders", NO_DEFAULT, NO_DEFAULT));

        CreateTopicsResponseData.CreatableTopicResult result = only(wire.roundTrip(build(version, data)));

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(broker.topics().byName("orders").orElseThrow().partitionCount())
                .isEqualTo(InMemoryBroker.DEFAULT_PARTITIONS);
    }

    @ServedVersionsTest(value = ApiKeys.CREATE_TOPICS, from = 1) // v1: validate_only
    void validateOnlyChecksWithoutCreating(short version) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setValidateOnly(true);
        data.topics().add(topic("orders", 4, 1));

        CreateTopicsResponseData.CreatableTopicResult result = only(wire.roundTrip(build(version, data)));

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        if (version >= 5) {
            assertThat(result.numPartitions()).isEqualTo(4);
        }
        assertThat(broker.topics().byName("orders")).as("validate_only creates nothing").isEmpty();
    }

    @ServedVersionsTest(ApiKeys.CREATE_TOPICS)
    void aTopicNamedTwiceIsAnInvalidRequestAndTheOthersAreCreated(short version) {
        CreateTopicsRequestData data = new CreateTopicsRequestData();
        data.topics().add(topic("twice", 1, 1));
        data.topics().add(topic("once", 1, 1));
        data.topics().add(topic("twice", 2, 1));

        CreateTopicsResponse response = wire.roundTrip(build(version, data));

        assertThat(response.data().topics()).extracting(CreateTopicsResponseData.CreatableTopicResult::name,
                        CreateTopicsResponseData.CreatableTopicResult::errorCode)
                .containsExactly(tuple("twice", Errors.INVALID_REQUEST.code()),
                        tuple("once", Errors.NONE.code()));
        assertThat(broker.topics().byName("twice")).isEmpty();
        assertThat(broker.topics().byName("once")).isPresent();
        if (version >= 1) {
            assertThat(response.data().topics().find("twice").errorMessage()).contains("multiple entries", "twice");
        }
    }

    @ServedVersionsTest(ApiKeys.CREATE_TOPICS)
    void anExistingTopicIsReported(short version) {
        broker.createTopic("orders", 1);
        CreateTopicsRequestData data = new CreateTopicsRequestData();
        data.topics().add(topic("orders", 3, 1));

        CreateTopicsResponseData.CreatableTopicResult result = only(wire.roundTrip(build(version, data)));

        assertThat(result.errorCode()).isEqualTo(Errors.TOPIC_ALREADY_EXISTS.code());
        if (version >= 1) {
            assertThat(result.errorMessage()).isEqualTo("Topic 'orders' already exists.");
        }
        assertThat(result.topicId()).isEqualTo(Uuid.ZERO_UUID);
        assertThat(broker.topics().byName("orders").orElseThrow().partitionCount()).isEqualTo(1);
    }

    @ServedVersionsTest(ApiKeys.CREATE_TOPICS)
    void anIllegalNameOrPartitionCountIsRefused(short version) {
        CreateTopicsRequestData data = new CreateTopicsRequestData();
        data.topics().add(topic("no spaces", 1, 1));
        data.topics().add(topic("zero-partitions", 0, 1));

        CreateTopicsResponse response = wire.roundTrip(build(version, data));

        assertThat(response.data().topics().find("no spaces").errorCode())
                .isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
        assertThat(response.data().topics().find("zero-partitions").errorCode())
                .isEqualTo(Errors.INVALID_PARTITIONS.code());
        assertThat(broker.topics().all()).isEmpty();
    }

    private static CreateTopicsRequest build(short version, CreateTopicsRequestData data) {
        return new CreateTopicsRequest.Builder(data).build(version);
    }

    private static CreateTopicsRequestData.CreatableTopic topic(String name, int partitions, int replicationFactor) {
        return new CreateTopicsRequestData.CreatableTopic().setName(name).setNumPartitions(partitions)
                .setReplicationFactor((short) replicationFactor);
    }

    private static CreateTopicsRequestData.CreateableTopicConfigCollection configs(String name, String value) {
        CreateTopicsRequestData.CreateableTopicConfigCollection configs =
                new CreateTopicsRequestData.CreateableTopicConfigCollection();
        configs.add(new CreateTopicsRequestData.CreateableTopicConfig().setName(name).setValue(value));
        return configs;
    }

    private static CreateTopicsResponseData.CreatableTopicConfigs config(CreateTopicsResponseData.CreatableTopicResult result,
                                                                       String name) {
        return result.configs().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static CreateTopicsResponseData.CreatableTopicResult only(CreateTopicsResponse response) {
        assertThat(response.data().topics()).hasSize(1);
        return response.data().topics().iterator().next();
    }
}
