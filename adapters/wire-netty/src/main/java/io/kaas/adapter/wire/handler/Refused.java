package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.domain.security.AclOperation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/** A whole request refused with one error, in the request's own error shape (Apache's {@code getErrorResponse}). */
final class Refused {
    private Refused() {
    }

    /** The request's error response, typed as its handler answers (each request's error response is its own type). */
    @SuppressWarnings("unchecked")
    static <R extends AbstractResponse> CompletionStage<R> with(AbstractRequest request, Errors error) {
        return CompletableFuture.completedFuture((R) request.getErrorResponse(error.exception()));
    }

    /**
     * Why an ACL admin request is refused, if it is: the caller lacks {@code operation} on the cluster
     * (CLUSTER_AUTHORIZATION_FAILED), or no authorizer is configured (SECURITY_DISABLED), in Apache's order.
     */
    static Optional<CompletionStage<AbstractResponse>> aclAdmin(Access access, RequestContext context,
                                                                AbstractRequest request, AclOperation operation) {
        if (!access.cluster(context, operation)) {
            return Optional.of(CompletableFuture.completedFuture(
                    request.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception())));
        }
        if (!access.enabled()) {
            return Optional.of(CompletableFuture.completedFuture(
                    request.getErrorResponse(0, new SecurityDisabledException("No Authorizer is configured."))));
        }
        return Optional.empty();
    }
}
