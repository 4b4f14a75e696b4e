package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * Creates, grows, deletes and looks up topics. A write answers once it is served by this broker, or with
 * REQUEST_TIMED_OUT when that takes longer than the request's timeout: a standalone broker at once, a cluster broker
 * once the operator has materialised the KafkaTopic it wrote.
 */
public interface TopicAdminUseCase {
    /** {@code numPartitions} and {@code replicationFactor} of -1 mean "the broker default". */
    int DEFAULT = -1;

    /**
     * Creates a topic, or with {@code validateOnly} checks everything a creation would (name,
     * existence, partitions, replica assignment, configs, the partition limit) and creates nothing.
     * A failed creation leaves nothing behind; one that timed out may still complete, as in Apache.
     *
     * <p>Each write charges the partitions it creates or deletes to {@code quota} once the request passed every
     * other check, as Apache's controller does (a validation too); a topic the quota refuses gets
     * {@link MutationQuota#EXCEEDED} and is left as it was.
     *
     * @param timeoutMs how long to wait for the topic to be served (CreateTopics' {@code timeout_ms})
     * @param quota     the requesting client's {@code controller_mutation_rate}
     */
    CompletionStage<CreateResult> create(CreateCommand command, long timeoutMs, MutationQuota quota);

    /** A creation no quota applies to (the broker's own, an auto-creation). */
    default CompletionStage<CreateResult> create(CreateCommand command, long timeoutMs) {
        return create(command, timeoutMs, MutationQuota.UNBOUNDED);
    }

    /**
     * Grows a topic to {@code command.count()} partitions (CreatePartitions), charging the partitions added.
     * Never shrinks; the same count is INVALID_PARTITIONS, as in Apache. New partitions start empty.
     */
    CompletionStage<Outcome> createPartitions(CreatePartitionsCommand command, long timeoutMs, MutationQuota quota);

    default CompletionStage<Outcome> createPartitions(CreatePartitionsCommand command, long timeoutMs) {
        return createPartitions(command, timeoutMs, MutationQuota.UNBOUNDED);
    }

    /** Deletes a topic, charging its partitions to {@code quota} once it is found. */
    CompletionStage<DeleteResult> deleteByName(String name, long timeoutMs, MutationQuota quota);

    default CompletionStage<DeleteResult> deleteByName(String name, long timeoutMs) {
        return deleteByName(name, timeoutMs, MutationQuota.UNBOUNDED);
    }

    CompletionStage<DeleteResult> deleteById(UUID id, long timeoutMs, MutationQuota quota);

    default CompletionStage<DeleteResult> deleteById(UUID id, long timeoutMs) {
        return deleteById(id, timeoutMs, MutationQuota.UNBOUNDED);
    }

    Optional<Topic> byName(String name);

    Optional<Topic> byId(UUID id);

    Collection<Topic> all();

    /**
     * @param assignments manual replica assignment, partition index to broker ids; empty for none
     */
    record CreateCommand(String name, int numPartitions, int replicationFactor,
                         Map<Integer, List<Integer>> assignments, Map<String, String> configs, boolean validateOnly) {
    }

    /** {@code topic} is the created (or, with validateOnly, the would-be) topic; null on error. */
    record CreateResult(KafkaError error, String message, Topic topic) {
    }

    /**
     * @param assignments broker ids for each new partition, or null to let the broker place them
     */
    record CreatePartitionsCommand(String name, int count, List<List<Integer>> assignments, boolean validateOnly) {
    }

    record DeleteResult(KafkaError error, String message, Topic topic) {
    }
}
