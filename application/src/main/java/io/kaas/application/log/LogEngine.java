package io.kaas.application.log;

import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;

/** Creates, opens and removes partition logs: in memory, or on the {@code Filesystem} port. */
public interface LogEngine extends AutoCloseable {

    /** Opens the partition's log with {@code config}, creating an empty one if it does not exist yet. */
    PartitionLog open(Topic topic, TopicPartition partition, LogConfig config);

    /**
     * Opens the partition's log as its leader at {@code leaderEpoch} (a takeover in cluster mode): the
     * epoch is raised on the volume before the log is recovered, so a deposed leader acknowledges
     * nothing the recovery does not see, and appends go to a segment named with the new epoch.
     * Returns the log already open if this broker has it.
     */
    PartitionLog takeOver(Topic topic, TopicPartition partition, LogConfig config, int leaderEpoch);

    /**
     * Closes one partition's log, leaving its files (and persisting what the next leader's recovery
     * can use) for the broker taking it over; nothing when it is not open.
     */
    void relinquish(TopicPartition partition);

    /**
     * Closes one partition's log and writes nothing more, leaving its files: its topic was deleted, the directory is
     * the operator's to remove, and a topic created again under the same name must not receive this one's state.
     * Nothing when it is not open.
     */
    void abandon(TopicPartition partition);

    /** Closes and removes one partition's log, and whatever files it had. */
    void deletePartition(TopicPartition partition);

    /** Closes and removes every partition log of the topic. */
    default void delete(Topic topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            deletePartition(topic.partition(p));
        }
    }

    /** The storage the logs live in, for DescribeLogDirs. */
    LogDir logDir();

    /** Closes every open log. */
    @Override
    void close();

    /**
     * A log directory: where it is and the space of the volume it is on.
     *
     * @param path        what DescribeLogDirs calls it: the absolute data directory, or a name for memory storage
     * @param totalBytes  the volume's size, -1 when unknown
     * @param usableBytes the space left for this broker on it, -1 when unknown
     */
    record LogDir(String path, long totalBytes, long usableBytes) {
        public static final long UNKNOWN = -1L;
    }
}
