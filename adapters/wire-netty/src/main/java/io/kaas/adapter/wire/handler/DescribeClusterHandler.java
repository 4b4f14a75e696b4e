package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ClusterUseCase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;

/**
 * DescribeCluster (key 60): cluster id, controller and brokers. Only broker endpoints exist (no
 * KRaft controllers), so asking for controllers gets MISMATCHED_ENDPOINT_TYPE, as from an Apache broker.
 */
public final class DescribeClusterHandler implements ApiHandler<DescribeClusterRequest> {
    private static final byte BROKERS = 1;
    private static final byte CONTROLLERS = 2;

    private final ClusterUseCase cluster;
    private final Access access;

    public DescribeClusterHandler(ClusterUseCase cluster, Access access) {
        this.cluster = cluster;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeClusterResponse> handle(RequestContext context, DescribeClusterRequest request) {
        byte endpointType = request.data().endpointType();
        DescribeClusterResponseData data = new DescribeClusterResponseData().setEndpointType(endpointType);
        if (endpointType == CONTROLLERS) {
            data.setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .setErrorMessage("The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER");
        } else if (endpointType != BROKERS) {
            data.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("Unsupported endpoint type " + endpointType);
        } else {
            data.setClusterId(cluster.clusterId())
                    .setControllerId(cluster.controllerId())
                    .setClusterAuthorizedOperations(
                            access.clusterOperations(context, request.data().includeClusterAuthorizedOperations()));
            for (ClusterUseCase.Broker broker : cluster.brokers()) {
                data.brokers().add(new DescribeClusterResponseData.DescribeClusterBroker()
                        .setBrokerId(broker.id()).setHost(broker.host()).setPort(broker.port()).setRack(broker.rack()));
            }
        }
        return CompletableFuture.completedFuture(new DescribeClusterResponse(data));
    }
}
