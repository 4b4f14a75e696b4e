package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.application.port.in.ClusterUseCase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;

/**
 * FindCoordinator (key 10): group keys (type 0) resolve through the cluster's group routing;
 * transaction keys (type 1) are COORDINATOR_NOT_AVAILABLE until the transaction coordinator exists.
 * v0-3 carry one key, v4+ a batch.
 */
public final class FindCoordinatorHandler implements ApiHandler<FindCoordinatorRequest> {
    /** v4 batched the keys (KIP-699). */
    private static final short FIRST_BATCHED_VERSION = 4;

    private final ClusterUseCase cluster;

    public FindCoordinatorHandler(ClusterUseCase cluster) {
        this.cluster = cluster;
    }

    @Override
    public CompletionStage<FindCoordinatorResponse> handle(RequestContext context, FindCoordinatorRequest request) {
        byte keyType = request.data().keyType();
        FindCoordinatorResponseData data = new FindCoordinatorResponseData();
        if (request.version() >= FIRST_BATCHED_VERSION) {
            for (String key : request.data().coordinatorKeys()) {
                data.coordinators().add(find(key, keyType).setKey(key));
            }
        } else {
            FindCoordinatorResponseData.Coordinator c = find(request.data().key(), keyType);
            data.setErrorCode(c.errorCode()).setErrorMessage(c.errorMessage())
                    .setNodeId(c.nodeId()).setHost(c.host()).setPort(c.port());
        }
        return CompletableFuture.completedFuture(new FindCoordinatorResponse(data));
    }

    private FindCoordinatorResponseData.Coordinator find(String key, byte keyType) {
        FindCoordinatorRequest.CoordinatorType type;
        try {
            type = FindCoordinatorRequest.CoordinatorType.forId(keyType);
        } catch (IllegalArgumentException e) {
            return failed(Errors.INVALID_REQUEST, "Unknown coordinator type " + keyType);
        }
        if (type != FindCoordinatorRequest.CoordinatorType.GROUP) {
            return failed(Errors.COORDINATOR_NOT_AVAILABLE, "This broker does not coordinate transactions yet");
        }
        ClusterUseCase.Broker broker = cluster.groupCoordinator(key);
        return new FindCoordinatorResponseData.Coordinator()
                .setErrorCode(Errors.NONE.code()).setNodeId(broker.id()).setHost(broker.host()).setPort(broker.port());
    }

    private static FindCoordinatorResponseData.Coordinator failed(Errors error, String message) {
        return new FindCoordinatorResponseData.Coordinator().setErrorCode(error.code()).setErrorMessage(message)
                .setNodeId(-1).setHost("").setPort(-1);
    }
}
