package io.kaas.domain.idempotence;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.Sequences;
import io.kaas.domain.error.KafkaError;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The producer state of one partition: classifies each produced batch as accept, duplicate or
 * reject, with Apache 3.7's rules ({@code UnifiedLog.analyzeAndValidateProducerState} and
 * {@code ProducerAppendInfo}), records accepted batches, and tracks transactions: which producers
 * have one in progress here and from which offset (what bounds the last stable offset), and the
 * COMMIT/ABORT markers that end them.
 *
 * <p>Not thread-safe: the partition's append lock guards it.
 */
public final class ProducerStateTable {
    private final Map<Long, ProducerWindow> producers = new HashMap<>();
    /** First offset of each transaction in progress → its producer; the smallest key bounds the LSO. */
    private final TreeMap<Long, Long> ongoing = new TreeMap<>();
    private final Map<Long, VerificationGuard> verifications = new HashMap<>();

    /** Classifies a batch from a trusted origin; batches without a producer id are always accepted. */
    public SequenceCheck classify(RecordBatchHeader batch) {
        return classify(batch, VerificationGuard.NOT_REQUIRED);
    }

    /**
     * Classifies a produced batch. A transactional batch that would start a transaction here needs
     * {@code guard} to be the producer's current verification (see {@link #beginVerification}),
     * unless it is {@link VerificationGuard#NOT_REQUIRED}.
     */
    public SequenceCheck classify(RecordBatchHeader batch, VerificationGuard guard) {
        if (!batch.hasProducerId()) {
            return SequenceCheck.ACCEPT;
        }
        ProducerWindow window = producers.get(batch.producerId());
        short epoch = batch.producerEpoch();
        int firstSeq = batch.baseSequence();
        int lastSeq = batch.lastSequence();
        if (window != null && epoch == window.epoch()) {
            Optional<BatchMetadata> duplicate = window.find(firstSeq, lastSeq);
            if (duplicate.isPresent()) {
                return new SequenceCheck.Duplicate(duplicate.get()); // before verification, as Apache
            }
        }
        boolean ongoingHere = window != null && window.hasOngoingTransaction();
        if (batch.isTransactional() && !ongoingHere && guard != VerificationGuard.NOT_REQUIRED
                && guard != verifications.get(batch.producerId())) {
            return new SequenceCheck.Reject(KafkaError.INVALID_TXN_STATE, "Record was not part of an ongoing transaction");
        }
        if (window == null) {
            // No state (new producer, or its state expired or was deleted): any sequence is accepted, as in Apache.
            return SequenceCheck.ACCEPT;
        }
        if (epoch < window.epoch()) {
            return staleEpoch(batch.producerId(), epoch, window);
        }
        if (epoch > window.epoch()) {
            if (firstSeq != 0) {
                return new SequenceCheck.Reject(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER, "Invalid sequence number for new "
                        + "epoch of producer " + batch.producerId() + ": " + epoch + " (request epoch), " + firstSeq
                        + " (seq. number), " + window.epoch() + " (current producer epoch)");
            }
        } else {
            int lastKnown = window.isEmpty() ? RecordBatchHeader.NO_SEQUENCE : window.lastSequence();
            if (!Sequences.follows(lastKnown, firstSeq)) {
                return new SequenceCheck.Reject(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER, "Out of order sequence number for "
                        + "producer " + batch.producerId() + ": " + firstSeq + " (incoming seq. number), "
                        + lastKnown + " (current end sequence number)");
            }
        }
        if (ongoingHere && !batch.isTransactional()) {
            return new SequenceCheck.Reject(KafkaError.INVALID_TXN_STATE, "Expected transactional write from producer "
                    + batch.producerId());
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
        long pid = batch.producerId();
        ProducerWindow window = producers.computeIfAbsent(pid, id -> new ProducerWindow(id, batch.producerEpoch()));
        if (window.epoch() != batch.producerEpoch()) {
            verifications.remove(pid);
        }
        window.record(batch.producerEpoch(), metadata, nowMs);
        if (batch.isTransactional() && !window.hasOngoingTransaction()) {
            window.beginTransaction(firstOffset);
            ongoing.put(firstOffset, pid);
            verifications.remove(pid); // used up: the transaction now exists here
        }
    }

    // Transactions.

    /**
     * Starts verifying that this partition is in the producer's transaction: the guard to append
     * with once the coordinator said so, or {@link VerificationGuard#NOT_REQUIRED} when the producer
     * already has a transaction in progress here.
     */
    public VerificationGuard beginVerification(long producerId, long nowMs) {
        ProducerWindow window = producers.get(producerId);
        if (window != null && window.hasOngoingTransaction()) {
            return VerificationGuard.NOT_REQUIRED;
        }
        return verifications.computeIfAbsent(producerId, id -> new VerificationGuard(nowMs));
    }

    public boolean hasOngoingTransaction(long producerId) {
        ProducerWindow window = producers.get(producerId);
        return window != null && window.hasOngoingTransaction();
    }

    /**
     * Whether a COMMIT/ABORT marker may be appended: not from an epoch older than the producer's
     * (INVALID_PRODUCER_EPOCH), nor from a coordinator older than the last one that wrote a marker
     * here (TRANSACTION_COORDINATOR_FENCED).
     */
    public SequenceCheck classifyMarker(long producerId, short epoch, int coordinatorEpoch) {
        ProducerWindow window = producers.get(producerId);
        if (window == null) {
            return SequenceCheck.ACCEPT;
        }
        if (epoch < window.epoch()) {
            return staleEpoch(producerId, epoch, window);
        }
        if (coordinatorEpoch < window.coordinatorEpoch()) {
            return new SequenceCheck.Reject(KafkaError.TRANSACTION_COORDINATOR_FENCED, "Invalid coordinator epoch for "
                    + "producerId " + producerId + ": " + coordinatorEpoch + " (zombie), " + window.coordinatorEpoch()
                    + " (current)");
        }
        return SequenceCheck.ACCEPT;
    }

    /**
     * Records a marker written at {@code offset}: the producer moves to the marker's epoch and its
     * transaction here, if any, ends. Returns that transaction; a marker for a producer with no
     * transaction here (a retried marker, or a transaction that never wrote here) ends nothing.
     */
    public Optional<CompletedTransaction> recordMarker(long producerId, short epoch, int coordinatorEpoch, boolean commit,
                                                       long offset, long nowMs) {
        ProducerWindow window = producers.computeIfAbsent(producerId, id -> new ProducerWindow(id, epoch));
        Optional<CompletedTransaction> completed = Optional.empty();
        if (window.hasOngoingTransaction()) {
            completed = Optional.of(new CompletedTransaction(producerId, window.currentTxnFirstOffset(), offset, !commit));
            ongoing.remove(window.currentTxnFirstOffset());
        }
        window.endTransaction(epoch, coordinatorEpoch, nowMs);
        verifications.remove(producerId);
        return completed;
    }

    /**
     * The coordinator gave the producer a newer epoch (a rejoin): batches of older epochs are
     * fenced here from now on, even before the new session writes here. Producers this partition
     * never saw are left alone (their zombie batches fail verification instead).
     */
    public void fence(long producerId, short newEpoch) {
        ProducerWindow window = producers.get(producerId);
        if (window != null && newEpoch > window.epoch()) {
            window.moveToEpoch(newEpoch);
            verifications.remove(producerId);
        }
    }

    /**
     * Forgets producers idle for at least {@code expirationMs} with no transaction in progress here,
     * and verifications handed out that long ago and never used, as Apache's
     * {@code ProducerStateManager.removeExpiredProducers} ({@code producer.id.expiration.ms}): a
     * producer's next batch after that is accepted as from a new producer. Returns how many producers went.
     */
    public int expireIdle(long nowMs, long expirationMs) {
        int before = producers.size();
        producers.values().removeIf(w -> !w.hasOngoingTransaction() && nowMs - w.lastTimestamp() >= expirationMs);
        verifications.values().removeIf(guard -> nowMs - guard.createdMs() >= expirationMs);
        return before - producers.size();
    }

    /** The first offset of the oldest transaction in progress: the last stable offset, if below the high watermark. */
    public OptionalLong firstUnstableOffset() {
        return ongoing.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ongoing.firstKey());
    }

    /** Every producer's window, for snapshots and DescribeProducers. */
    public Collection<ProducerWindow> windows() {
        return List.copyOf(producers.values());
    }

    /** Replaces the table's content with restored windows. */
    public void restore(Collection<ProducerWindow> windows) {
        producers.clear();
        ongoing.clear();
        verifications.clear();
        windows.forEach(w -> {
            producers.put(w.producerId(), w);
            if (w.hasOngoingTransaction()) {
                ongoing.put(w.currentTxnFirstOffset(), w.producerId());
            }
        });
    }

    private static SequenceCheck staleEpoch(long producerId, short epoch, ProducerWindow window) {
        return new SequenceCheck.Reject(KafkaError.INVALID_PRODUCER_EPOCH, "Epoch of producer " + producerId
                + " is " + epoch + ", which is smaller than the last seen epoch " + window.epoch());
    }
}
