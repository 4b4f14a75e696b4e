package io.kaas.adapter.wire.dispatch;

import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Serves one API key: maps the request onto use cases and their results onto the response. Runs
 * on the connection's event loop, so it must not block; slow work completes the stage later.
 */
@FunctionalInterface
public interface ApiHandler<Q extends AbstractRequest> {
    CompletionStage<? extends AbstractResponse> handle(RequestContext context, Q request);
}
