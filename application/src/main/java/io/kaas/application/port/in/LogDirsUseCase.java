package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/** DescribeLogDirs: where partitions are stored, how big they are, and how full the volume is. */
public interface LogDirsUseCase {

    /**
     * @param partitions the partitions to report (those not served here are left out, as Apache
     *                   does), or null for every partition
     */
    CompletionStage<List<LogDir>> describe(Set<TopicPartition> partitions);

    /** One partition's bytes of log. */
    record PartitionSize(TopicPartition partition, long sizeBytes) {
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
