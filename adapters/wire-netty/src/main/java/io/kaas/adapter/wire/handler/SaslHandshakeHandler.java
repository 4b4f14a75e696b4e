package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * SaslHandshake (key 17) on a connection that needs no handshake: one already authenticated on a
 * SASL listener whose session has no end to re-authenticate for (KIP-368), or any on a listener without
 * authentication. The handshake proper is the
 * pre-authentication gate's ({@code SaslServerAuthenticator}); here Apache's KafkaApis answers
 * ILLEGAL_SASL_STATE, and so does kaas.
 */
public final class SaslHandshakeHandler implements ApiHandler<SaslHandshakeRequest> {

    @Override
    public CompletionStage<SaslHandshakeResponse> handle(RequestContext context, SaslHandshakeRequest request) {
        return CompletableFuture.completedFuture(new SaslHandshakeResponse(new SaslHandshakeResponseData()
                .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())));
    }
}
