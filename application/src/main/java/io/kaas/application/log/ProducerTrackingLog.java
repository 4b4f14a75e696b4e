package io.kaas.application.log;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.idempotence.CompletedTransaction;
import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.SequenceCheck;
import io.kaas.domain.idempotence.VerificationGuard;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.txn.TxnMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * What the disk and memory logs share: the partition's producer state table and the one sequence
 * every append follows, so that the rules of idempotence and transactions are written once.
 *
 * <p>The partition lock is this object's monitor. Under it, an append (records or a transaction
 * marker): asks the log whether it refuses appends now; classifies the batch with the producer
 * state table (a duplicate answers its original offset, a rejection its error); stores the batch
 * at the log end (the log's own step: a storage failure becomes the answer, never an exception
 * thrown at the caller); records it in the producer state (a marker ends its producer's
 * transaction, an ABORT enters the aborted-transaction index); publishes the new read snapshot;
 * and decides when the append is durable. Outside the lock the {@link AppendListener} hears of it.
 * Verification, fencing, expiry and DescribeProducers take the same lock.
 */
abstract class ProducerTrackingLog implements PartitionLog {
    /** Guarded by {@code this}. */
    protected final ProducerStateTable producers;
    private final AppendListener listener;

    protected ProducerTrackingLog(ProducerStateTable producers, AppendListener listener) {
        this.producers = producers;
        this.listener = listener;
    }

    @Override
    public final AppendResult append(ByteBuffer batch, long nowMs, VerificationGuard guard) {
        return append(new Produced(batch, guard), nowMs);
    }

    /**
     * Markers are always made durable before they count (see {@link #durable}): the coordinator
     * completes a transaction only once every marker is, and a lost marker would leave the
     * partition's last stable offset stuck behind the transaction.
     */
    @Override
    public final AppendResult appendMarker(TxnMarker marker, long nowMs) {
        return append(new Marker(marker), nowMs);
    }

    private AppendResult append(Entry entry, long nowMs) {
        AppendResult result;
        AppendListener.Append notice;
        synchronized (this) {
            AppendResult refused = refusal();
            if (refused != null) {
                return refused;
            }
            SequenceCheck check = entry.classify(producers);
            if (check instanceof SequenceCheck.Duplicate duplicate) {
                return new AppendResult.Duplicate(duplicate.original().firstOffset(), logStartOffset());
            }
            if (check instanceof SequenceCheck.Reject reject) {
                return new AppendResult.Rejected(reject.error(), reject.message());
            }
            ByteBuffer batch = entry.batch(nowMs);
            RecordBatchHeader stored;
            try {
                stored = storeAtEnd(batch, RecordBatchHeader.at(batch), nowMs);
            } catch (IOException e) {
                return storageError(e.getMessage());
            } catch (KafkaException e) {
                return new AppendResult.Rejected(e.error(), e.getMessage());
            }
            Optional<AbortedTxn> abortedEntry = entry.record(producers, stored, nowMs);
            if (abortedEntry.isPresent()) {
                AppendResult unindexed = indexAborted(abortedEntry.get());
                if (unindexed != null) {
                    return unindexed;
                }
            }
            notice = publishAppend(stored, batch.remaining());
            result = new AppendResult.Appended(stored.baseOffset(), -1L, logStartOffset(),
                    durable(stored, entry instanceof Marker, nowMs));
        }
        listener.onAppend(notice);
        return result;
    }

    static AppendResult storageError(String message) {
        return new AppendResult.Rejected(KafkaError.KAFKA_STORAGE_ERROR, message);
    }

    // ------------------------------------------------------------------ the steps each log supplies, under the lock

    /** Why no append may happen now, or null when appends may go on. */
    protected abstract AppendResult refusal();

    /** The log start offset appends answer with. */
    protected abstract long logStartOffset();

    /**
     * Stores a classified batch at the log end with its base offset and leader epoch assigned;
     * returns the header of the stored bytes. An {@link IOException} answers KAFKA_STORAGE_ERROR with
     * its message, a {@link KafkaException} its error; either way nothing counts as appended.
     */
    protected abstract RecordBatchHeader storeAtEnd(ByteBuffer batch, RecordBatchHeader header, long nowMs)
            throws IOException;

    /**
     * Enters a transaction the marker just stored aborted in the aborted-transaction index; null once
     * it is there, or what the append answers when it cannot be (the marker is stored, unindexed).
     */
    protected abstract AppendResult indexAborted(AbortedTxn entry);

    /** Publishes the read snapshot that includes the stored batch of {@code size} bytes; what to tell the listener. */
    protected abstract AppendListener.Append publishAppend(RecordBatchHeader stored, int size);

    /** The stage that completes once the stored batch is durable; {@code marker} for a transaction marker. */
    protected abstract CompletionStage<Void> durable(RecordBatchHeader stored, boolean marker, long nowMs);

    // ------------------------------------------------------------------ producer state beyond appends

    @Override
    public synchronized VerificationGuard beginVerification(long producerId, long nowMs) {
        return producers.beginVerification(producerId, nowMs);
    }

    @Override
    public synchronized void fence(long producerId, short epoch) {
        producers.fence(producerId, epoch);
    }

    @Override
    public synchronized void expireProducers(long nowMs, long expirationMs) {
        producers.expireIdle(nowMs, expirationMs);
    }

    @Override
    public synchronized List<ProducerState> producers() {
        return TransactionalState.describe(producers);
    }

    // ------------------------------------------------------------------ what is appended

    /** A batch on its way into the log: how it is classified, what bytes are stored, how it is recorded. */
    private sealed interface Entry permits Produced, Marker {
        SequenceCheck classify(ProducerStateTable producers);

        /** The bytes to store. */
        ByteBuffer batch(long nowMs);

        /** Records the stored batch in the producer state; the aborted-index entry it produces, if any. */
        Optional<AbortedTxn> record(ProducerStateTable producers, RecordBatchHeader stored, long nowMs);
    }

    /** A produced batch, classified against its producer's dedupe window. */
    private record Produced(ByteBuffer batch, VerificationGuard guard) implements Entry {
        @Override
        public SequenceCheck classify(ProducerStateTable producers) {
            return producers.classify(RecordBatchHeader.at(batch), guard);
        }

        @Override
        public ByteBuffer batch(long nowMs) {
            return batch;
        }

        @Override
        public Optional<AbortedTxn> record(ProducerStateTable producers, RecordBatchHeader stored, long nowMs) {
            producers.record(stored, stored.baseOffset(), nowMs);
            return Optional.empty();
        }
    }

    /** A COMMIT or ABORT control batch, built with the broker's time once the marker is accepted. */
    private record Marker(TxnMarker marker) implements Entry {
        @Override
        public SequenceCheck classify(ProducerStateTable producers) {
            return producers.classifyMarker(marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch());
        }

        @Override
        public ByteBuffer batch(long nowMs) {
            return TransactionalState.markerBatch(marker, nowMs);
        }

        @Override
        public Optional<AbortedTxn> record(ProducerStateTable producers, RecordBatchHeader stored, long nowMs) {
            Optional<CompletedTransaction> ended = producers.recordMarker(marker.producerId(), marker.producerEpoch(),
                    marker.coordinatorEpoch(), marker.commit(), stored.baseOffset(), nowMs);
            return ended.filter(CompletedTransaction::aborted).map(t -> TransactionalState.abortedEntry(t, producers));
        }
    }
}
