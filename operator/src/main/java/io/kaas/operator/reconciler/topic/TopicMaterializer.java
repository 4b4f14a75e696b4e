package io.kaas.operator.reconciler.topic;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.application.port.out.Filesystem;
import io.kaas.domain.topic.Topic;
import io.kaas.operator.model.DesiredTopic;
import io.kaas.operator.model.Refusal;
import io.kaas.operator.model.TopicPlan;
import io.kaas.operator.model.VolumePlacement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a topic's directory on the data volume to what its KafkaTopic declares, through the brokers' own topic store
 * ({@link JsonTopicStore#shared}), so both write and read the same files: the partition directories first, then
 * {@code .config.json}, then the incarnation stamp {@code .topic-id.json}, which makes the topic exist for brokers.
 * Every file goes through the {@link Filesystem} port: temp, fsync, rename, directory fsync. Re-running it is safe
 * at any point; callers hold the topic's {@link TopicLocks lock}.
 */
public final class TopicMaterializer {
    private static final Logger LOG = LoggerFactory.getLogger(TopicMaterializer.class);

    private final DataLayout layout;
    private final Filesystem fs;
    private final JsonTopicStore store;

    public TopicMaterializer(DataLayout layout, Filesystem fs, JsonTopicStore store) {
        this.layout = layout;
        this.fs = fs;
        this.store = store;
    }

    /** The outcome: refused (the volume untouched) or materialised with the placement of each partition. */
    public sealed interface Outcome permits Refused, Materialized {
    }

    public record Refused(Refusal refusal) implements Outcome {
    }

    public record Materialized(Topic topic, VolumePlacement placement) implements Outcome {
    }

    /**
     * @param topicId  the KafkaTopic's {@code status.topicId}, already stored in the API server
     * @param otherIds the topic ids of every other KafkaTopic, whose directories are never reclaimed
     * @param recorded the KafkaTopic's {@code status.volumeAssignments}
     */
    public Outcome materialize(DesiredTopic desired, UUID topicId, Set<UUID> otherIds, Map<String, String> recorded) {
        Optional<Topic> onDisk = store.load(desired.name());
        TopicPlan plan = TopicPlan.of(desired, topicId, onDisk, otherIds);
        if (plan instanceof TopicPlan.Refuse refuse) {
            return new Refused(refuse.refusal());
        }
        TopicPlan.Materialize change = (TopicPlan.Materialize) plan;
        Topic target = change.target();
        change.reclaim().ifPresent(previous -> {
            LOG.info("topic {}: reclaiming the directory of its previous incarnation (id {}) for id {}", target.name(),
                    previous.id(), topicId);
            store.delete(previous); // the stamp first: from then on no broker opens that incarnation
        });
        VolumePlacement placement = VolumePlacement.place(change.existingPartitions() > 0 ? recorded : Map.of(),
                change.existingPartitions(), target.partitionCount(), desired.eligibleVolumes());
        for (int p = change.existingPartitions(); p < target.partitionCount(); p++) {
            createDirectory(target, p);
        }
        if (change.rewriteDefinition()) {
            store.save(target);
            LOG.info("topic {} (id {}): {} partitions, overrides {}", target.name(), topicId, target.partitionCount(),
                    target.configs());
        }
        return new Materialized(target, placement);
    }

    private void createDirectory(Topic topic, int partition) {
        try {
            fs.createDirectories(layout.partitionDir(topic.name(), partition));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create partition " + partition + " of topic " + topic.name(), e);
        }
    }
}
