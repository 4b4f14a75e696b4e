package io.kaas.domain.txn;

import io.kaas.domain.error.KafkaError;

/**
 * The answer to InitProducerId.
 *
 * @param needsFreshProducerId the epochs ran out: call again with a newly allocated producer id
 * @param abortStarted         a transaction was in progress and is being aborted first (the error is
 *                             CONCURRENT_TRANSACTIONS; the caller owes its ABORT markers)
 */
public record InitResult(KafkaError error, long producerId, short producerEpoch, boolean needsFreshProducerId,
                         boolean abortStarted) {

    public static InitResult ok(long producerId, short epoch) {
        return new InitResult(KafkaError.NONE, producerId, epoch, false, false);
    }

    public static InitResult failed(KafkaError error) {
        return new InitResult(error, -1L, (short) -1, false, false);
    }

    static InitResult needsProducerId() {
        return new InitResult(KafkaError.NONE, -1L, (short) -1, true, false);
    }

    static InitResult aborting() {
        return new InitResult(KafkaError.CONCURRENT_TRANSACTIONS, -1L, (short) -1, false, true);
    }
}
