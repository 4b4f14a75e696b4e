package io.kaas.domain.idempotence;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * One producer id's state on one partition: its current epoch and the metadata of its last
 * {@value #CAPACITY} batches (the Java client keeps at most 5 requests in flight per connection).
 */
public final class ProducerWindow {
    /** Batches remembered per producer, as Apache's {@code ProducerStateEntry.NUM_BATCHES_TO_RETAIN}. */
    public static final int CAPACITY = 5;

    private final long producerId;
    private short epoch;
    private final Deque<BatchMetadata> batches = new ArrayDeque<>(CAPACITY);
    private long lastTimestamp;

    ProducerWindow(long producerId, short epoch) {
        this.producerId = producerId;
        this.epoch = epoch;
    }

    /** Rebuilds a window from a snapshot. */
    public static ProducerWindow restore(long producerId, short epoch, long lastTimestamp, List<BatchMetadata> batches) {
        ProducerWindow window = new ProducerWindow(producerId, epoch);
        window.lastTimestamp = lastTimestamp;
        batches.forEach(window::add);
        return window;
    }

    public long producerId() {
        return producerId;
    }

    public short epoch() {
        return epoch;
    }

    /** Wall-clock time of the last append by this producer, for expiry. */
    public long lastTimestamp() {
        return lastTimestamp;
    }

    /** Oldest first. */
    public List<BatchMetadata> batches() {
        return List.copyOf(batches);
    }

    boolean isEmpty() {
        return batches.isEmpty();
    }

    int lastSequence() {
        return batches.getLast().lastSequence();
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
        if (newEpoch != epoch) {
            batches.clear();
            epoch = newEpoch;
        }
        add(batch);
        lastTimestamp = nowMs;
    }

    private void add(BatchMetadata batch) {
        if (batches.size() == CAPACITY) {
            batches.removeFirst();
        }
        batches.addLast(batch);
    }
}
