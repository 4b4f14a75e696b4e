package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;

/**
 * SaslAuthenticate (key 36) outside an exchange: after authentication completed (and no
 * re-authentication began), or on a listener without authentication. The exchange itself runs in the
 * pre-authentication gate ({@code SaslServerAuthenticator}); here Apache's KafkaApis answers
 * ILLEGAL_SASL_STATE, and so does kaas.
 */
public final class SaslAuthenticateHandler implements ApiHandler<SaslAuthenticateRequest> {

    @Override
    public CompletionStage<SaslAuthenticateResponse> handle(RequestContext context, SaslAuthenticateRequest request) {
        return CompletableFuture.completedFuture(new SaslAuthenticateResponse(new SaslAuthenticateResponseData()
                .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                .setErrorMessage("SaslAuthenticate request received after successful authentication")));
    }
}
