package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/** Describes topics and their partitions' leaders, creating requested topics when allowed. */
public interface MetadataUseCase {

    /**
     * Describes topics as they are; creates nothing, touches no file.
     *
     * @param names the topics to describe, or null for every topic
     */
    List<TopicMetadata> describe(List<String> names);

    /**
     * Describes the named topics, first creating the unknown ones when the broker's setting allows
     * it (the client asked for auto-creation). Creating writes files, so the answer may complete on
     * another thread; with nothing to create it is complete on return.
     */
    CompletionStage<List<TopicMetadata>> describeOrCreate(List<String> names);

    /** Whether {@link #describeOrCreate} creates unknown topics (the broker's {@code auto.create.topics.enable}). */
    boolean createsTopics();

    record TopicMetadata(String name, UUID id, KafkaError error, List<PartitionMetadata> partitions) {
        public static TopicMetadata failed(String name, KafkaError error) {
            return new TopicMetadata(name, null, error, List.of());
        }
    }

    /** A partition's leader and epoch; LEADER_NOT_AVAILABLE (leader -1) while no broker leads it yet. */
    record PartitionMetadata(int partition, KafkaError error, int leaderId, int leaderEpoch, List<Integer> replicas) {
        public PartitionMetadata(int partition, int leaderId, int leaderEpoch, List<Integer> replicas) {
            this(partition, KafkaError.NONE, leaderId, leaderEpoch, replicas);
        }
    }
}
