package io.kaas.domain.idempotence;

/**
 * A transaction a marker ended on one partition: its producer, the offset of its first batch
 * there, the marker's offset, and whether it was aborted.
 */
public record CompletedTransaction(long producerId, long firstOffset, long lastOffset, boolean aborted) {
}
