package io.kaas.adapter.wire.handler;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
}
