package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

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

    /** The log dirs the logs live in, for DescribeLogDirs: the data directory first. */
    List<LogDir> logDirs();

    /** The path of the log dir holding a partition's open log; empty when it is not open here. */
    Optional<String> logDirOf(TopicPartition partition);

    /** The copy of a partition's log a move to another log dir is making (Apache's future replica), if any. */
    default Optional<FutureLog> futureLogOf(TopicPartition partition) {
        return Optional.empty();
    }

    /**
     * AlterReplicaLogDirs for one partition: moves its log to the log dir whose path is {@code destination}, in the
     * background; returns at once. NONE when the move started or the log is there already, LOG_DIR_NOT_FOUND for a
     * path that is no log dir, KAFKA_STORAGE_ERROR when that dir is offline (its directory is gone),
     * REPLICA_NOT_AVAILABLE when the partition's log is not open here (a partition created later is then placed in
     * that dir, as Apache does).
     *
     * @param swap how the move's last step replaces the served log
     */
    KafkaError moveLog(TopicPartition partition, String destination, LogSwap swap);

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

    /**
     * A partition's log being copied to another log dir.
     *
     * @param path      the target log dir's path
     * @param sizeBytes the bytes copied so far
     * @param offsetLag how far the copy is behind the log end
     */
    record FutureLog(String path, long sizeBytes, long offsetLag) {
    }

    /** Replaces the log served for a partition: the last step of a move between log dirs. */
    interface LogSwap {
        /**
         * Stops serving {@code current} (requests for the partition are answered NOT_LEADER_OR_FOLLOWER meanwhile),
         * then serves what {@code replacement} returns (nothing when it returns null: a newer leader took the
         * partition over meanwhile); nothing, and false, when {@code current} is not served (any more). Topic changes
         * wait until it returns.
         */
        boolean swap(PartitionLog current, Supplier<PartitionLog> replacement);
    }
}
