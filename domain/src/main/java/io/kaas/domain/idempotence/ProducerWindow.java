package io.kaas.domain.idempotence;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * One producer id's state on one partition: its current epoch, the metadata of its last
 * {@value #CAPACITY} batches (the Java client keeps at most 5 requests in flight per connection),
 * the first offset of its ongoing transaction here, if any, and the epoch of the transaction
 * coordinator whose marker it saw last (Apache's {@code ProducerStateEntry}).
 */
public final class ProducerWindow {
    /** Batches remembered per producer, as Apache's {@code ProducerStateEntry.NUM_BATCHES_TO_RETAIN}. */
    public static final int CAPACITY = 5;
    /** No transaction in progress (Apache keeps an empty {@code OptionalLong}). */
    public static final long NO_TRANSACTION = -1L;
    /** No marker seen yet. */
    public static final int NO_COORDINATOR_EPOCH = -1;

    private final long producerId;
    private short epoch;
    private final Deque<BatchMetadata> batches = new ArrayDeque<>(CAPACITY);
    private long lastTimestamp;
    private long describedTimestamp;
    private long currentTxnFirstOffset = NO_TRANSACTION;
    private int coordinatorEpoch = NO_COORDINATOR_EPOCH;

    ProducerWindow(long producerId, short epoch) {
        this.producerId = producerId;
        this.epoch = epoch;
    }

    /** Rebuilds a window of a producer with no transaction in progress from a snapshot. */
    public static ProducerWindow restore(long producerId, short epoch, long lastTimestamp, List<BatchMetadata> batches) {
        return restore(producerId, epoch, lastTimestamp, lastTimestamp, batches, NO_TRANSACTION, NO_COORDINATOR_EPOCH);
    }

    /** Rebuilds a window from a snapshot. */
    public static ProducerWindow restore(long producerId, short epoch, long lastTimestamp, long describedTimestamp,
                                         List<BatchMetadata> batches, long currentTxnFirstOffset, int coordinatorEpoch) {
        ProducerWindow window = new ProducerWindow(producerId, epoch);
        window.lastTimestamp = lastTimestamp;
        window.describedTimestamp = describedTimestamp;
        window.currentTxnFirstOffset = currentTxnFirstOffset;
        window.coordinatorEpoch = coordinatorEpoch;
        batches.forEach(window::add);
        return window;
    }

    public long producerId() {
        return producerId;
    }

    public short epoch() {
        return epoch;
    }

    /** Wall-clock time of the last append (batch or marker) by this producer, for expiry. */
    public long lastTimestamp() {
        return lastTimestamp;
    }

    /**
     * What DescribeProducers reports as the producer's last timestamp, as Apache's
     * {@code ProducerStateEntry.lastTimestamp}: its last batch's largest timestamp, or the time of
     * the last marker that ended one of its transactions.
     */
    public long describedTimestamp() {
        return describedTimestamp;
    }

    /** Oldest first. */
    public List<BatchMetadata> batches() {
        return List.copyOf(batches);
    }

    /** First offset of the producer's transaction in progress here, or {@link #NO_TRANSACTION}. */
    public long currentTxnFirstOffset() {
        return currentTxnFirstOffset;
    }

    public boolean hasOngoingTransaction() {
        return currentTxnFirstOffset != NO_TRANSACTION;
    }

    /** Epoch of the coordinator that wrote the producer's last marker here, or {@link #NO_COORDINATOR_EPOCH}. */
    public int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    /** Sequence of the last record appended, -1 when the window holds no batch. */
    public int lastSequence() {
        return batches.isEmpty() ? -1 : batches.getLast().lastSequence();
    }

    boolean isEmpty() {
        return batches.isEmpty();
    }

    Optional<BatchMetadata> find(int firstSequence, int lastSequence) {
        for (BatchMetadata b : batches) {
            if (b.firstSequence() == firstSequence && b.lastSequence() == lastSequence) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }

    void record(short newEpoch, BatchMetadata batch, long nowMs) {
        moveToEpoch(newEpoch);
        add(batch);
        lastTimestamp = nowMs;
        describedTimestamp = batch.maxTimestamp();
    }

    void beginTransaction(long firstOffset) {
        currentTxnFirstOffset = firstOffset;
    }

    /** A marker ended the transaction (if one was in progress) with {@code markerEpoch}. */
    void endTransaction(short markerEpoch, int markerCoordinatorEpoch, long nowMs) {
        moveToEpoch(markerEpoch);
        coordinatorEpoch = markerCoordinatorEpoch;
        currentTxnFirstOffset = NO_TRANSACTION;
        lastTimestamp = nowMs;
        describedTimestamp = nowMs;
    }

    /** A newer epoch fences the older one: its batches can no longer be retried. */
    void moveToEpoch(short newEpoch) {
        if (newEpoch != epoch) {
            batches.clear();
            epoch = newEpoch;
        }
    }

    private void add(BatchMetadata batch) {
        if (batches.size() == CAPACITY) {
            batches.removeFirst();
        }
        batches.addLast(batch);
    }
}
