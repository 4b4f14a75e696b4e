package io.kaas.domain.idempotence;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.Sequences;
import io.kaas.domain.error.KafkaError;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotent-producer state of one partition: classifies each produced batch as accept,
 * duplicate or reject, with Apache 3.7's rules ({@code UnifiedLog.analyzeAndValidateProducerState}
 * and {@code ProducerAppendInfo}), and records accepted batches.
 *
 * <p>Not thread-safe: the partition's append lock guards it.
 */
public final class ProducerStateTable {
    private final Map<Long, ProducerWindow> producers = new HashMap<>();

    /** Classifies a batch; batches without a producer id are always accepted. */
    public SequenceCheck classify(RecordBatchHeader batch) {
        if (!batch.hasProducerId()) {
            return SequenceCheck.ACCEPT;
        }
        ProducerWindow window = producers.get(batch.producerId());
        if (window == null) {
            // No state (new producer, or its state expired or was deleted): any sequence is accepted, as in Apache.
            return SequenceCheck.ACCEPT;
        }
        short epoch = batch.producerEpoch();
        int firstSeq = batch.baseSequence();
        int lastSeq = batch.lastSequence();
        if (epoch == window.epoch()) {
            Optional<BatchMetadata> duplicate = window.find(firstSeq, lastSeq);
            if (duplicate.isPresent()) {
                return new SequenceCheck.Duplicate(duplicate.get());
            }
        }
        if (epoch < window.epoch()) {
            return new SequenceCheck.Reject(KafkaError.INVALID_PRODUCER_EPOCH, "Epoch of producer " + batch.producerId()
                    + " is " + epoch + ", which is smaller than the last seen epoch " + window.epoch());
        }
        if (epoch > window.epoch()) {
            if (firstSeq != 0) {
                return new SequenceCheck.Reject(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER, "Invalid sequence number for new "
                        + "epoch of producer " + batch.producerId() + ": " + epoch + " (request epoch), " + firstSeq
                        + " (seq. number), " + window.epoch() + " (current producer epoch)");
            }
            return SequenceCheck.ACCEPT;
        }
        int lastKnown = window.isEmpty() ? RecordBatchHeader.NO_SEQUENCE : window.lastSequence();
        if (!Sequences.follows(lastKnown, firstSeq)) {
            return new SequenceCheck.Reject(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER, "Out of order sequence number for "
                    + "producer " + batch.producerId() + ": " + firstSeq + " (incoming seq. number), "
                    + lastKnown + " (current end sequence number)");
        }
        return SequenceCheck.ACCEPT;
    }

    /** Records an accepted batch that now sits in the log at {@code firstOffset}. */
    public void record(RecordBatchHeader batch, long firstOffset, long nowMs) {
        if (!batch.hasProducerId()) {
            return;
        }
        BatchMetadata metadata = new BatchMetadata(batch.baseSequence(), batch.lastSequence(), firstOffset,
                batch.lastOffsetDelta(), batch.maxTimestamp());
        producers.computeIfAbsent(batch.producerId(), pid -> new ProducerWindow(pid, batch.producerEpoch()))
                .record(batch.producerEpoch(), metadata, nowMs);
    }

    /** Every producer's window, for snapshots. */
    public Collection<ProducerWindow> windows() {
        return List.copyOf(producers.values());
    }

    /** Replaces the table's content with restored windows. */
    public void restore(Collection<ProducerWindow> windows) {
        producers.clear();
        windows.forEach(w -> producers.put(w.producerId(), w));
    }
}
