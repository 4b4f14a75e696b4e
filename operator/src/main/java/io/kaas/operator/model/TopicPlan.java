package io.kaas.operator.model;

import io.kaas.domain.topic.Topic;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What to do on the volume for a checked spec, given what the topic's directory holds. The incarnation stamp decides:
 * the directory is this KafkaTopic's when it carries its {@code status.topicId}; a stamp of any other id is a previous
 * incarnation, to be reclaimed, unless a live KafkaTopic owns that id; a directory without a stamp is adopted.
 */
public sealed interface TopicPlan permits TopicPlan.Refuse, TopicPlan.Materialize {

    /** Leave the volume as it is. */
    record Refuse(Refusal refusal) implements TopicPlan {
    }

    /**
     * Bring the directory to {@code target}.
     *
     * @param reclaim            a previous incarnation's topic, whose directory goes first
     * @param existingPartitions partitions that exist already (0 after a reclaim)
     * @param rewriteDefinition  whether {@code .config.json} and the stamp differ from {@code target}
     */
    record Materialize(Topic target, Optional<Topic> reclaim, int existingPartitions, boolean rewriteDefinition)
            implements TopicPlan {
    }

    /**
     * @param topicId  this KafkaTopic's {@code status.topicId}
     * @param onDisk   the topic stamped in the directory, if any
     * @param otherIds the {@code status.topicId} of every other KafkaTopic
     */
    static TopicPlan of(DesiredTopic desired, UUID topicId, Optional<Topic> onDisk, Set<UUID> otherIds) {
        Topic target = new Topic(desired.name(), topicId, desired.partitions(), desired.configs());
        if (onDisk.isEmpty()) {
            return new Materialize(target, Optional.empty(), 0, true);
        }
        Topic stored = onDisk.get();
        if (!stored.id().equals(topicId)) {
            if (otherIds.contains(stored.id())) {
                return new Refuse(new Refusal(Refusal.TOPIC_NAME_CONFLICT, "the directory of topic '" + desired.name()
                        + "' belongs to another KafkaTopic (topic id " + stored.id() + ")"));
            }
            return new Materialize(target, onDisk, 0, true);
        }
        if (desired.partitions() < stored.partitionCount()) {
            return new Refuse(new Refusal(Refusal.PARTITION_DECREASE_REFUSED, "topic '" + desired.name() + "' has "
                    + stored.partitionCount() + " partitions; spec.partitions " + desired.partitions()
                    + " would remove some, and partitions only grow"));
        }
        return new Materialize(target, Optional.empty(), stored.partitionCount(), !stored.equals(target));
    }
}
