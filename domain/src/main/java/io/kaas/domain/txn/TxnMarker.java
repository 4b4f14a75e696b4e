package io.kaas.domain.txn;

/**
 * A COMMIT or ABORT marker to append for one producer's transaction: what the transaction
 * coordinator (or a WriteTxnMarkers request) asks each partition leader to write.
 */
public record TxnMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
}
