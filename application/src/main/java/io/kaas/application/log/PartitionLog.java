package io.kaas.application.log;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.idempotence.VerificationGuard;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One partition's log. Appends are serialised inside the log (idempotence classification, offset
 * assignment and the write happen under one lock); reads and {@link #offsets()} never block on it.
 */
public interface PartitionLog {

    TopicPartition topicPartition();

    /**
     * Appends one validated v2 batch from a trusted origin (no transaction verification). The log
     * rewrites its base offset and leader epoch in place and copies or writes the bytes before
     * returning, so the caller may release the buffer afterwards.
     */
    default AppendResult append(ByteBuffer batch, long nowMs) {
        return append(batch, nowMs, VerificationGuard.NOT_REQUIRED);
    }

    /**
     * Where appends to this log run when their caller must not do file work (a connection's event
     * loop): one at a time in submission order, on an I/O thread for a log on files, inline for one
     * in memory. Appends submitted here in order are appended in that order.
     * Every log of a broker runs its queue on the same threads.
     */
    AppendQueue appendQueue();

    /**
     * Appends a produced batch; a transactional batch that would start its producer's transaction
     * here is refused (INVALID_TXN_STATE) unless {@code guard} is still the producer's current
     * verification from {@link #beginVerification}.
     */
    AppendResult append(ByteBuffer batch, long nowMs, VerificationGuard guard);

    /**
     * Appends a COMMIT or ABORT control batch for a producer's transaction, which ends it here; an
     * ABORT of a transaction with records here enters the aborted-transaction index. The result's
     * {@code durable} completes once an fsync covers the marker, whatever the flush settings. A
     * marker from an older producer epoch is INVALID_PRODUCER_EPOCH, from an older coordinator
     * TRANSACTION_COORDINATOR_FENCED.
     */
    AppendResult appendMarker(TxnMarker marker, long nowMs);

    /**
     * Starts a transaction verification for a producer about to write transactionally here (see
     * {@link io.kaas.domain.idempotence.ProducerStateTable#beginVerification}):
     * {@link VerificationGuard#NOT_REQUIRED} when it already has a transaction in progress here.
     */
    VerificationGuard beginVerification(long producerId, long nowMs);

    /**
     * The producer now has a newer epoch (a rejoin): batches of older epochs are refused from now on.
     * Producers with no state here are left alone.
     */
    void fence(long producerId, short epoch);

    /** Every producer this partition remembers, for DescribeProducers. */
    List<ProducerState> producers();

    /**
     * Forgets producers idle here for {@code expirationMs} with no transaction in progress
     * ({@code producer.id.expiration.ms}); the next producer-state snapshot leaves them out.
     */
    void expireProducers(long nowMs, long expirationMs);

    /** A read_uncommitted read: see {@link #read(long, int, boolean, boolean)}. */
    default LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch) {
        return read(fetchOffset, maxBytes, minOneBatch, false);
    }

    /**
     * Reads whole batches from the one containing {@code fetchOffset} up to the high watermark
     * (read_uncommitted) or the last stable offset (read_committed, which also returns the aborted
     * transactions overlapping what was read), stopping before {@code maxBytes} would be exceeded;
     * with {@code minOneBatch} the first batch is returned even when it alone is larger (KIP-74).
     * An offset outside [log start, high watermark] is {@code OFFSET_OUT_OF_RANGE}.
     */
    LogRead read(long fetchOffset, int maxBytes, boolean minOneBatch, boolean readCommitted);

    /** The latest published offsets; lock-free. */
    LogOffsets offsets();

    /**
     * Completes once everything below {@code endOffset} that an append asked to make durable is
     * durable: what acks=-1 waits for when a producer's retry is a duplicate of a batch still on
     * its way to the disk. At once when nothing there waits for an fsync (the memory log, or
     * flush.messages above 1); exceptionally when the log cannot make it durable.
     */
    default CompletionStage<Void> durableThrough(long endOffset) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * The offset below which a completed fsync covers every batch, lock-free: what the acks=-1
     * promise is checked against. A log that is never fsynced (the memory log) answers
     * {@link Long#MAX_VALUE}, so nothing is ever found waiting.
     */
    default long syncedOffset() {
        return Long.MAX_VALUE;
    }

    /**
     * Whether the log stalled for good: an fsync failed or outlived {@code KAAS_FSYNC_MAX_LATENCY_MS},
     * and appends fail with KAFKA_STORAGE_ERROR until the partition is reopened. Lock-free, for gauges.
     * A memory log never stalls.
     */
    default boolean stalled() {
        return false;
    }

    /**
     * The first record, in offset order, whose timestamp is at least {@code timestamp}: its offset
     * (never below the log start) and its timestamp. Batch headers find the first batch reaching the
     * timestamp; only such a batch is read and searched by {@code records}. Reads files: call it on
     * the I/O executor.
     */
    Optional<TimestampOffset> offsetForTimestamp(long timestamp, BatchRecordSearch records);

    /**
     * The batch holding the largest timestamp (the first one on ties): its last offset and that
     * timestamp, which is what Apache 3.7 answers (3.8 answers the record's own offset).
     */
    Optional<TimestampOffset> maxTimestamp();

    /** Bytes of log the partition holds now: the sum of its segments' sizes (what DescribeLogDirs reports). */
    long sizeInBytes();

    /** Segments the partition holds now, the active one included (one for a log in memory). Lock-free, for gauges. */
    default int segmentCount() {
        return 1;
    }

    /** The leader epoch this log's batches are stamped with. */
    int leaderEpoch();

    /**
     * Advances the log start to {@code offset} (DeleteRecords) and frees what lies wholly below it;
     * OFFSET_OUT_OF_RANGE past the high watermark. Durable when it returns NONE.
     */
    KafkaError deleteRecordsBefore(long offset);

    /**
     * Drops old data past the topic's {@code retention.ms} / {@code retention.bytes} when its
     * {@code cleanup.policy} includes delete; never the active segment.
     */
    void applyRetention(long nowMs);

    /** Applies changed topic configs from the next append, roll or retention pass on. */
    void updateConfig(LogConfig config);
}
