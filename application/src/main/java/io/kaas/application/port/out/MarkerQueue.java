package io.kaas.application.port.out;

import io.kaas.domain.topic.TopicPartition;
import java.util.List;

/**
 * Transaction markers owed to partitions another broker leads, as files on the shared volume,
 * {@code __cluster/marker_queue/to-<broker>/<pid>-<epoch>.json}, instead of Apache's
 * WriteTxnMarkers RPC between brokers. A durably enqueued entry counts as a placed marker: the
 * target applies it and removes the file. Entries are named by producer and epoch, so a retried
 * dispatch overwrites rather than piles up. Every method may block on I/O.
 */
public interface MarkerQueue {

    /** Writes (or overwrites) the entry for {@code targetBroker}; durable when it returns. */
    void enqueue(int targetBroker, QueuedMarkers markers);

    /** The entries waiting for {@code brokerId}. */
    List<QueuedMarkers> pending(int brokerId);

    /** Removes an applied entry; a missing one is not an error. */
    void remove(int brokerId, long producerId, short producerEpoch);

    /** The markers of one transaction for the partitions one broker leads. */
    record QueuedMarkers(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                         List<TopicPartition> partitions) {
        public QueuedMarkers {
            partitions = List.copyOf(partitions);
        }
    }
}
