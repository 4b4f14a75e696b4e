package io.kaas.application.port.in;

import io.kaas.domain.topic.TopicPartition;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Leader elections and replica reassignments, as the admin tools ask for them. With one writer per
 * partition on shared storage a partition's replica set is its leader: an election never needs to
 * run, and a reassignment to the current leader is complete at once.
 */
public interface PartitionLeadershipUseCase {

    /**
     * Elects leaders (preferred or unclean). {@code partitions} null means every partition, and then,
     * as in Apache, partitions that needed no election are left out of the answer.
     */
    Map<TopicPartition, Outcome> electLeaders(Collection<TopicPartition> partitions);

    /** Moves partitions to new replica sets; a null replica list cancels a reassignment in progress. */
    Map<TopicPartition, Outcome> reassign(Map<TopicPartition, List<Integer>> targets);

    /** The reassignments in progress among {@code partitions} (null: all): none can be, they complete at once. */
    Map<TopicPartition, List<Integer>> ongoingReassignments(Collection<TopicPartition> partitions);
}
