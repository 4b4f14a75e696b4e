package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import java.util.List;
import java.util.UUID;

/** Describes topics and their partitions' leaders, creating requested topics when allowed. */
public interface MetadataUseCase {

    /**
     * @param names           the topics to describe, or null for every topic
     * @param allowAutoCreate whether the client allows creating unknown topics (the broker's own
     *                        setting must allow it too)
     */
    List<TopicMetadata> describe(List<String> names, boolean allowAutoCreate);

    record TopicMetadata(String name, UUID id, KafkaError error, List<PartitionMetadata> partitions) {
        public static TopicMetadata failed(String name, KafkaError error) {
            return new TopicMetadata(name, null, error, List.of());
        }
    }

    record PartitionMetadata(int partition, int leaderId, int leaderEpoch, List<Integer> replicas) {
    }
}
