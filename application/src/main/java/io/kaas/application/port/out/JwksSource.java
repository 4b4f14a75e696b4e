package io.kaas.application.port.out;

import java.util.concurrent.CompletionStage;

/** Where an OAuth issuer publishes its signing keys (a JWKS endpoint). */
public interface JwksSource {

    /** The JWKS document as served; completes on the transport's own threads and never blocks the caller. */
    CompletionStage<byte[]> fetch();

    /** Where it fetches from, for the log. */
    String location();
}
