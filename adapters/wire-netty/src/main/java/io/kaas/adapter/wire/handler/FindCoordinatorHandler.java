package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.domain.security.AclOperation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;

/**
 * FindCoordinator (key 10): group keys (type 0) and transactional ids (type 1) resolve through the
 * cluster's coordinator routing; no broker able to coordinate is COORDINATOR_NOT_AVAILABLE, which
 * clients retry. v0-3 carry one key, v4+ a batch. As Apache: DESCRIBE on the group or transactional id, else
 * GROUP_ or TRANSACTIONAL_ID_AUTHORIZATION_FAILED.
 */
public final class FindCoordinatorHandler implements ApiHandler<FindCoordinatorRequest> {
    /** v4 batched the keys (KIP-699). */
    private static final short FIRST_BATCHED_VERSION = 4;

    private final ClusterUseCase cluster;
    private final Access access;

    public FindCoordinatorHandler(ClusterUseCase cluster, Access access) {
        this.cluster = cluster;
        this.access = access;
    }

    @Override
    public CompletionStage<FindCoordinatorResponse> handle(RequestContext context, FindCoordinatorRequest request) {
        byte keyType = request.data().keyType();
        FindCoordinatorResponseData data = new FindCoordinatorResponseData();
        if (request.version() >= FIRST_BATCHED_VERSION) {
            for (String key : request.data().coordinatorKeys()) {
                data.coordinators().add(find(context, key, keyType).setKey(key));
            }
        } else {
            FindCoordinatorResponseData.Coordinator c = find(context, request.data().key(), keyType);
            data.setErrorCode(c.errorCode()).setErrorMessage(c.errorMessage())
                    .setNodeId(c.nodeId()).setHost(c.host()).setPort(c.port());
        }
        return CompletableFuture.completedFuture(new FindCoordinatorResponse(data));
    }

    private FindCoordinatorResponseData.Coordinator find(RequestContext context, String key, byte keyType) {
        FindCoordinatorRequest.CoordinatorType type;
        try {
            type = FindCoordinatorRequest.CoordinatorType.forId(keyType);
        } catch (IllegalArgumentException e) {
            return failed(Errors.INVALID_REQUEST, "Unknown coordinator type " + keyType);
        }
        if (type == FindCoordinatorRequest.CoordinatorType.GROUP && !access.group(context, AclOperation.DESCRIBE, key)) {
            return failed(Errors.GROUP_AUTHORIZATION_FAILED, Errors.GROUP_AUTHORIZATION_FAILED.message());
        }
        if (type == FindCoordinatorRequest.CoordinatorType.TRANSACTION
                && !access.transactionalId(context, AclOperation.DESCRIBE, key)) {
            return failed(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
        }
        Optional<ClusterUseCase.Broker> coordinator = type == FindCoordinatorRequest.CoordinatorType.GROUP
                ? cluster.groupCoordinator(key) : cluster.transactionCoordinator(key);
        if (coordinator.isEmpty()) {
            return failed(Errors.COORDINATOR_NOT_AVAILABLE, "No broker can coordinate " + key + " now");
        }
        ClusterUseCase.Broker broker = coordinator.get();
        return new FindCoordinatorResponseData.Coordinator()
                .setErrorCode(Errors.NONE.code()).setNodeId(broker.id()).setHost(broker.host()).setPort(broker.port());
    }

    private static FindCoordinatorResponseData.Coordinator failed(Errors error, String message) {
        return new FindCoordinatorResponseData.Coordinator().setErrorCode(error.code()).setErrorMessage(message)
                .setNodeId(-1).setHost("").setPort(-1);
    }
}
