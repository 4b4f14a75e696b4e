package io.kaas.domain.idempotence;

/**
 * One producer's state on a partition, as DescribeProducers reports it.
 *
 * @param lastSequence          the last sequence appended, -1 if none is remembered
 * @param lastTimestamp         when it last appended (broker time), -1 if unknown
 * @param coordinatorEpoch      the epoch of the coordinator whose marker it saw last, -1 if none
 * @param currentTxnStartOffset the first offset of its transaction in progress here, -1 if none
 */
public record ProducerState(long producerId, short producerEpoch, int lastSequence, long lastTimestamp,
                            int coordinatorEpoch, long currentTxnStartOffset) {
}
