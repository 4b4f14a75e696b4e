package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Metadata at every served version, through the real registry and the in-memory use cases. */
class MetadataHandlerTest extends HandlerTestBase {
    private static final int NOT_REQUESTED = Integer.MIN_VALUE;

    private Topic orders;

    @BeforeEach
    void createTopics() {
        orders = broker.createTopic("orders", 3);
    }

    @ServedVersionsTest(ApiKeys.METADATA)
    void describesTheBrokerTheClusterAndATopic(short version) {
        MetadataResponseData data = wire.<MetadataResponse>roundTrip(request(version, List.of("orders"), true)).data();

        assertThat(data.brokers()).singleElement().satisfies(b -> {
            assertThat(b.nodeId()).isEqualTo(InMemoryBroker.BROKER_ID);
            assertThat(b.host()).isEqualTo(InMemoryBroker.HOST);
            assertThat(b.port()).isEqualTo(InMemoryBroker.PORT);
            assertThat(b.rack()).as("from v1").isEqualTo(version >= 1 ? InMemoryBroker.RACK : null);
        });
        assertThat(data.clusterId()).isEqualTo(version >= 2 ? InMemoryBroker.CLUSTER_ID : null);
        assertThat(data.controllerId()).isEqualTo(version >= 1 ? InMemoryBroker.BROKER_ID : -1);
        assertThat(data.topics()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("orders");
            assertThat(t.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(t.isInternal()).isFalse();
            assertThat(t.topicId()).isEqualTo(version >= 10 ? TopicIdMapping.toWire(orders.id()) : Uuid.ZERO_UUID);
            assertThat(t.topicAuthorizedOperations()).isEqualTo(NOT_REQUESTED);
            assertThat(t.partitions()).extracting(MetadataResponseData.MetadataResponsePartition::partitionIndex)
                    .containsExactly(0, 1, 2);
            for (MetadataResponseData.MetadataResponsePartition p : t.partitions()) {
                assertThat(p.errorCode()).isZero();
                assertThat(p.leaderId()).isEqualTo(InMemoryBroker.BROKER_ID);
                assertThat(p.leaderEpoch()).isEqualTo(version >= 7 ? 0 : -1);
                assertThat(p.replicaNodes()).containsExactly(InMemoryBroker.BROKER_ID);
                assertThat(p.isrNodes()).containsExactly(InMemoryBroker.BROKER_ID);
                assertThat(p.offlineReplicas()).isEmpty();
            }
        });
        assertThat(data.clusterAuthorizedOperations()).isEqualTo(NOT_REQUESTED);
    }

    @ServedVersionsTest(ApiKeys.METADATA)
    void anUnknownTopicIsCreatedWhenTheClientAndTheBrokerAllowIt(short version) {
        MetadataResponseData data = wire.<MetadataResponse>roundTrip(request(version, List.of("fresh"), true)).data();

        assertThat(data.topics()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("fresh");
            assertThat(t.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(t.partitions()).hasSize(InMemoryBroker.DEFAULT_PARTITIONS);
        });
        assertThat(broker.topics().byName("fresh")).isPresent();
    }

    @ServedVersionsTest(value = ApiKeys.METADATA, from = 4) // v4: allow_auto_topic_creation
    void anUnknownTopicIsNotCreatedWhenTheClientSaysNo(short version) {
        MetadataResponseData data = wire.<MetadataResponse>roundTrip(request(version, List.of("fresh"), false)).data();

        assertThat(data.topics()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("fresh");
            assertThat(t.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(t.partitions()).isEmpty();
        });
        assertThat(broker.topics().byName("fresh")).isEmpty();
    }

    @ServedVersionsTest(ApiKeys.METADATA)
    void anUnknownTopicIsNotCreatedWhenTheBrokerSaysNo(short version) {
        InMemoryBroker strict = new InMemoryBroker(false);
        try (WireChannel other = new WireChannel(strict.registry())) {
            MetadataResponseData data = other.<MetadataResponse>roundTrip(request(version, List.of("fresh"), true)).data();

            assertThat(data.topics()).singleElement().satisfies(t ->
                    assertThat(t.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
            assertThat(strict.topics().byName("fresh")).isEmpty();
        }
    }

    @ServedVersionsTest(ApiKeys.METADATA)
    void anIllegalTopicNameIsReportedAsInvalid(short version) {
        MetadataResponseData data = wire.<MetadataResponse>roundTrip(
                request(version, List.of("orders", "no spaces allowed"), true)).data();

        assertThat(data.topics()).extracting(MetadataResponseData.MetadataResponseTopic::name,
                        MetadataResponseData.MetadataResponseTopic::errorCode)
                .containsExactly(tuple("orders", Errors.NONE.code()),
                        tuple("no spaces allowed", Errors.INVALID_TOPIC_EXCEPTION.code()));
    }

    @ServedVersionsTest(ApiKeys.METADATA)
    void allTopicsAreListedByName(short version) {
        broker.createTopic("audit", 1);
        // v0 asks for every topic with an empty list; later versions with a null one.
        MetadataRequest all = request(version, version == 0 ? List.of() : null, true);

        MetadataResponseData data = wire.<MetadataResponse>roundTrip(all).data();

        assertThat(data.topics()).extracting(MetadataResponseData.MetadataResponseTopic::name)
                .containsExactly("audit", "orders");
    }

    @ServedVersionsTest(value = ApiKeys.METADATA, from = 1)
    void anEmptyTopicListMeansNoTopicsFromV1(short version) {
        MetadataResponseData data = wire.<MetadataResponse>roundTrip(request(version, List.of(), true)).data();

        assertThat(data.topics()).isEmpty();
        assertThat(data.brokers()).hasSize(1);
    }

    @ServedVersionsTest(value = ApiKeys.METADATA, from = 8) // v8: include_*_authorized_operations
    void authorizedOperationsAreReturnedWhenAsked(short version) {
        MetadataRequestData data = requestData(version, List.of("orders"), true).setIncludeTopicAuthorizedOperations(true);
        if (version <= 10) {
            data.setIncludeClusterAuthorizedOperations(true);
        }

        MetadataResponseData response = wire.<MetadataResponse>roundTrip(new MetadataRequest(data, version)).data();

        int topicOps = response.topics().iterator().next().topicAuthorizedOperations();
        assertThat(Utils.from32BitField(topicOps)).contains(AclOperation.READ.code(), AclOperation.WRITE.code(),
                AclOperation.DESCRIBE.code());
        if (version <= 10) {
            assertThat(Utils.from32BitField(response.clusterAuthorizedOperations()))
                    .contains(AclOperation.IDEMPOTENT_WRITE.code(), AclOperation.DESCRIBE.code());
        }
    }

    @ParameterizedTest(name = "v{0}")
    @ValueSource(shorts = 12)
    void topicsAreDescribedByIdFromV12(short version) {
        Uuid known = TopicIdMapping.toWire(orders.id());
        Uuid unknown = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAg");
        MetadataRequest byId = new MetadataRequest.Builder(List.of(known, unknown)).build(version);

        MetadataResponseData data = wire.<MetadataResponse>roundTrip(byId).data();

        assertThat(data.topics()).hasSize(2);
        List<MetadataResponseData.MetadataResponseTopic> topics = new ArrayList<>(data.topics());
        assertThat(topics.get(0).name()).isEqualTo("orders");
        assertThat(topics.get(0).topicId()).isEqualTo(known);
        assertThat(topics.get(0).errorCode()).isZero();
        assertThat(topics.get(0).partitions()).hasSize(3);
        assertThat(topics.get(1).name()).isNull();
        assertThat(topics.get(1).topicId()).isEqualTo(unknown);
        assertThat(topics.get(1).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
    }

    @ParameterizedTest(name = "v{0}")
    @ValueSource(shorts = {10, 11})
    void topicIdsBeforeV12AreAnInvalidRequest(short version) {
        // kafka-clients refuses to build this; a client that sends it anyway gets INVALID_REQUEST from Apache.
        MetadataRequestData data = new MetadataRequestData();
        data.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(null)
                .setTopicId(TopicIdMapping.toWire(orders.id())));

        MetadataResponseData response = wire.<MetadataResponse>roundTrip(new MetadataRequest(data, version)).data();

        assertThat(response.topics()).singleElement().satisfies(t ->
                assertThat(t.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code()));
        assertThat(wire.isOpen()).isTrue();
    }

    @ParameterizedTest(name = "v{0}")
    @ValueSource(shorts = {10, 11, 12})
    void aTopicWithNeitherNameNorIdIsAnInvalidRequest(short version) {
        MetadataRequestData data = new MetadataRequestData();
        data.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(null));

        MetadataResponseData response = wire.<MetadataResponse>roundTrip(new MetadataRequest(data, version)).data();

        assertThat(response.topics()).singleElement().satisfies(t ->
                assertThat(t.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code()));
    }

    private static MetadataRequest request(short version, List<String> names, boolean allowAutoCreate) {
        return new MetadataRequest(requestData(version, names, allowAutoCreate), version);
    }

    /** Built directly (kafka-clients' builder refuses v0), as the client of each version would send it. */
    private static MetadataRequestData requestData(short version, List<String> names, boolean allowAutoCreate) {
        MetadataRequestData data = new MetadataRequestData();
        if (version >= 4) {
            data.setAllowAutoTopicCreation(allowAutoCreate);
        }
        if (names == null) {
            data.setTopics(null);
        } else {
            names.forEach(n -> data.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(n)));
        }
        return data;
    }
}
