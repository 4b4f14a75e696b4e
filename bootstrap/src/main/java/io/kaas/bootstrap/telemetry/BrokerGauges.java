package io.kaas.bootstrap.telemetry;

import io.kaas.application.metrics.ConsumerLag.PartitionLag;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;

/**
 * The broker's state the gauges read when collected. Every method answers without waiting on a
 * partition lock: a stuck fsync must not take the metrics down with it.
 */
public interface BrokerGauges {

    /** Partitions this broker leads now, and how many of them stalled. */
    PartitionCounts partitions();

    /** Consumer-group lag of every committed partition whose group is coordinated and partition led here. */
    List<PartitionLag> lag();

    /** Each partition led here: its log's size and segments. */
    List<PartitionStorage> storage();

    /** Rebalances begun per group coordinated here, since this broker loaded the group. */
    Map<String, Long> rebalances();

    /** Transactions in progress among those coordinated here. */
    Transactions transactions();

    /** Each log dir (volume pool member) this broker has: its size and the space left, as last measured. */
    List<LogDirSpace> logDirs();

    /** Whether this broker sees a controller: in a cluster, a live holder of the controller Lease; standalone, always. */
    boolean controllerPresent();

    record PartitionCounts(long led, long stalled) {
    }

    record PartitionStorage(TopicPartition partition, long bytes, int segments) {
    }

    /**
     * @param name        the member's name ({@code default} for the data directory)
     * @param path        its root, as DescribeLogDirs names it
     * @param totalBytes  the volume's size
     * @param usableBytes what is left for new data
     */
    record LogDirSpace(String name, String path, long totalBytes, long usableBytes) {
    }

    /** @param oldestAgeMs how long ago the oldest of them began; 0 when there are none */
    record Transactions(long active, long oldestAgeMs) {
    }
}
