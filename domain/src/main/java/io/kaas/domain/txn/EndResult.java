package io.kaas.domain.txn;

import io.kaas.domain.error.KafkaError;

/**
 * The answer to EndTxn: an error, or NONE with whether the caller must still see the prepared
 * transaction through (place its markers, run its offset hooks, complete it) before answering.
 */
public record EndResult(KafkaError error, boolean awaitMarkers) {
    static final EndResult DONE = new EndResult(KafkaError.NONE, false);
    static final EndResult AWAIT = new EndResult(KafkaError.NONE, true);

    static EndResult failed(KafkaError error) {
        return new EndResult(error, false);
    }
}
