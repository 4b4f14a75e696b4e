package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * DescribeLogDirs and AlterReplicaLogDirs: which log dir holds each partition, how big it is, how full each
 * dir's volume is, and moving a partition between log dirs.
 */
public interface LogDirsUseCase {

    /**
     * @param partitions the partitions to report (those not served here are left out, as Apache
     *                   does), or null for every partition
     */
    CompletionStage<List<LogDir>> describe(Set<TopicPartition> partitions);

    /**
     * Starts moving each partition to the log dir whose path it maps to; the moves run in the background. Per
     * partition: NONE (started, or there already), LOG_DIR_NOT_FOUND, or REPLICA_NOT_AVAILABLE.
     */
    CompletionStage<Map<TopicPartition, KafkaError>> alter(Map<TopicPartition, String> destinations);

    /**
     * One partition's bytes of log in a dir.
     *
     * @param offsetLag how far a future replica (a move's copy) is behind the log end; 0 for the current one
     * @param future    whether this is the copy a move to this dir is making
     */
    record PartitionSize(TopicPartition partition, long sizeBytes, long offsetLag, boolean future) {
        public PartitionSize(TopicPartition partition, long sizeBytes) {
            this(partition, sizeBytes, 0, false);
        }
    }

    /**
     * A log directory and the requested partitions in it.
     *
     * @param totalBytes  the volume's size, -1 when unknown
     * @param usableBytes the space left on it, -1 when unknown
     */
    record LogDir(String path, KafkaError error, long totalBytes, long usableBytes, List<PartitionSize> partitions) {
    }
}
