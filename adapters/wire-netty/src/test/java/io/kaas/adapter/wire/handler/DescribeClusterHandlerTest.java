package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.utils.Utils;

/** DescribeCluster at every served version; there are broker endpoints only, no KRaft controllers. */
class DescribeClusterHandlerTest extends HandlerTestBase {
    private static final byte BROKERS = 1;
    private static final byte CONTROLLERS = 2;

    @ServedVersionsTest(ApiKeys.DESCRIBE_CLUSTER)
    void describesTheClusterAndItsBrokers(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(
                request(version, new DescribeClusterRequestData())).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.errorMessage()).isNull();
        assertThat(data.endpointType()).isEqualTo(BROKERS);
        assertThat(data.clusterId()).isEqualTo(InMemoryBroker.CLUSTER_ID);
        assertThat(data.controllerId()).isEqualTo(InMemoryBroker.BROKER_ID);
        assertThat(data.brokers()).singleElement().satisfies(b -> {
            assertThat(b.brokerId()).isEqualTo(InMemoryBroker.BROKER_ID);
            assertThat(b.host()).isEqualTo(InMemoryBroker.HOST);
            assertThat(b.port()).isEqualTo(InMemoryBroker.PORT);
            assertThat(b.rack()).isEqualTo(InMemoryBroker.RACK);
        });
        assertThat(data.clusterAuthorizedOperations()).isEqualTo(Integer.MIN_VALUE);
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CLUSTER)
    void clusterOperationsAreReturnedWhenAsked(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(request(version,
                new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true))).data();

        assertThat(Utils.from32BitField(data.clusterAuthorizedOperations()))
                .contains(AclOperation.DESCRIBE.code(), AclOperation.CREATE.code(), AclOperation.IDEMPOTENT_WRITE.code());
    }

    @ServedVersionsTest(value = ApiKeys.DESCRIBE_CLUSTER, from = 1) // v1: endpoint_type
    void askingABrokerForControllersIsAMismatchedEndpointType(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(
                request(version, new DescribeClusterRequestData().setEndpointType(CONTROLLERS))).data();

        assertThat(data.errorCode()).isEqualTo(Errors.MISMATCHED_ENDPOINT_TYPE.code());
        assertThat(data.errorMessage()).isNotBlank();
        assertThat(data.brokers()).isEmpty();
    }

    @ServedVersionsTest(value = ApiKeys.DESCRIBE_CLUSTER, from = 1) // v1: endpoint_type
    void anUnknownEndpointTypeIsUnsupported(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(
                request(version, new DescribeClusterRequestData().setEndpointType((byte) 9))).data();

        assertThat(data.errorCode()).isEqualTo(Errors.UNSUPPORTED_ENDPOINT_TYPE.code());
        assertThat(data.brokers()).isEmpty();
    }

    private static DescribeClusterRequest request(short version, DescribeClusterRequestData data) {
        return new DescribeClusterRequest.Builder(data).build(version);
    }
}
