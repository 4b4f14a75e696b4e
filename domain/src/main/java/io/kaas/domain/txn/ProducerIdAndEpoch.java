package io.kaas.domain.txn;

/** A producer id with one of its epochs. */
public record ProducerIdAndEpoch(long producerId, short epoch) {
}
