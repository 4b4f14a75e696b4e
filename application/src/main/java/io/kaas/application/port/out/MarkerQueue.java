package io.kaas.application.port.out;

import io.kaas.domain.topic.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

/**
 * Transaction markers owed to partitions another broker leads, as files on the shared volume,
 * {@code __cluster/marker_queue/to-<broker>/<key>.json}, instead of Apache's WriteTxnMarkers RPC
 * between brokers. The target appends every marker of an entry, then removes it; the coordinator
 * counts the markers placed only once the entry is gone. An entry's key is derived from its
 * content, so a retried dispatch overwrites rather than piles up, and an entry rewritten with other
 * partitions is a different file. Every method may block on I/O.
 */
public interface MarkerQueue {

    /** Writes (or overwrites) the entry for {@code targetBroker}; durable when it returns. */
    void enqueue(int targetBroker, QueuedMarkers markers);

    /** The entries waiting for {@code brokerId}. */
    List<QueuedMarkers> pending(int brokerId);

    /** Whether the entry still waits for {@code brokerId}, not yet applied and removed. */
    boolean isPending(int brokerId, QueuedMarkers markers);

    /** Removes an entry; a missing one is not an error. */
    void remove(int brokerId, QueuedMarkers markers);

    /**
     * One transaction's outcome for one broker: the markers of the partitions it leads and the staged
     * offsets of the groups it coordinates (none in entries written before groups travelled here).
     */
    record QueuedMarkers(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                         List<TopicPartition> partitions, List<String> groups) {
        public QueuedMarkers {
            partitions = partitions.stream().sorted(Comparator.comparing(TopicPartition::topic)
                    .thenComparingInt(TopicPartition::partition)).distinct().toList();
            groups = groups == null ? List.of() : groups.stream().sorted().distinct().toList();
        }

        /** The entry's name, the same wherever it is computed: producer, epoch and a checksum of the rest. */
        public String key() {
            CRC32 crc = new CRC32();
            String content = commit + ":" + coordinatorEpoch + ":" + partitions.stream()
                    .map(tp -> tp.topic() + "/" + tp.partition()).collect(Collectors.joining(","))
                    + groups.stream().map(g -> ":" + g.length() + "=" + g).collect(Collectors.joining()); // ids may hold any character
            crc.update(content.getBytes(StandardCharsets.UTF_8));
            return producerId + "-" + producerEpoch + "-" + Long.toHexString(crc.getValue());
        }
    }
}
