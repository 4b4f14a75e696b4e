package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.stream.Stream;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** DescribeCluster at every served version; there are broker endpoints only, no KRaft controllers. */
@ExtendWith(NettyLeakDetection.class)
class DescribeClusterHandlerTest {
    private static final byte BROKERS = 1;
    private static final byte CONTROLLERS = 2;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.DESCRIBE_CLUSTER);
    }

    static Stream<Short> versionsWithEndpointType() {
        return ServedVersions.from(ApiKeys.DESCRIBE_CLUSTER, 1);
    }

    @BeforeEach
    void connect() {
        wire = new WireChannel(broker.registry());
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
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
            assertThat(b.rack()).isNull();
        });
        assertThat(data.clusterAuthorizedOperations()).isEqualTo(Integer.MIN_VALUE);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void clusterOperationsAreReturnedWhenAsked(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(request(version,
                new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true))).data();

        assertThat(Utils.from32BitField(data.clusterAuthorizedOperations()))
                .contains(AclOperation.DESCRIBE.code(), AclOperation.CREATE.code(), AclOperation.IDEMPOTENT_WRITE.code());
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithEndpointType")
    void askingABrokerForControllersIsAMismatchedEndpointType(short version) {
        DescribeClusterResponseData data = wire.<DescribeClusterResponse>roundTrip(
                request(version, new DescribeClusterRequestData().setEndpointType(CONTROLLERS))).data();

        assertThat(data.errorCode()).isEqualTo(Errors.MISMATCHED_ENDPOINT_TYPE.code());
        assertThat(data.errorMessage()).isNotBlank();
        assertThat(data.brokers()).isEmpty();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithEndpointType")
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
