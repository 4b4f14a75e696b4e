package io.kaas.application.log;

import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;

/** Creates, opens and removes partition logs: in memory, or on the {@code Filesystem} port. */
public interface LogEngine extends AutoCloseable {

    /** Opens the partition's log, creating an empty one if it does not exist yet. */
    PartitionLog open(Topic topic, TopicPartition partition);

    /** Closes and removes every partition log of the topic. */
    void delete(Topic topic);

    /** Closes every open log. */
    @Override
    void close();
}
