package io.kaas.operator.reconciler.topic;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.application.log.PartitionState;
import io.kaas.application.port.out.Filesystem;
import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.Topic;
import io.kaas.operator.model.DesiredTopic;
import io.kaas.operator.model.PoolVolume;
import io.kaas.operator.model.Refusal;
import io.kaas.operator.model.TopicPlan;
import io.kaas.operator.model.VolumePlacement;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a topic's directory on the data volume to what its KafkaTopic declares, through the brokers' own topic store
 * ({@link JsonTopicStore#shared}), so both write and read the same files: the partition directories first, each new
 * one placed on a pool volume with its placement record ({@code log-dir.json}, what brokers open it by), then
 * {@code .config.json}, then the incarnation stamp {@code .topic-id.json}, which makes the topic exist for brokers. A
 * broker opens only partitions below the stored count, so none opens a partition before its placement is recorded.
 * Every file goes through the {@link Filesystem} port: temp, fsync, rename, directory fsync. Re-running it is safe
 * at any point (a partition whose count was not stored yet is placed again, its directory cleared first); callers
 * hold the topic's {@link TopicLocks lock}. An adopted directory's partition that holds a log stays on the data
 * volume, where its records are.
 */
public final class TopicMaterializer {
    private static final Logger LOG = LoggerFactory.getLogger(TopicMaterializer.class);

    private final DataLayout layout;
    private final JsonFiles files;
    private final JsonTopicStore store;
    private final PoolRoots pool;

    /**
     * @param pool where the pool members besides the data volume are mounted
     */
    public TopicMaterializer(DataLayout layout, JsonFiles files, JsonTopicStore store, PoolRoots pool) {
        this.layout = layout;
        this.files = files;
        this.store = store;
        this.pool = pool;
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
     */
    public Outcome materialize(DesiredTopic desired, UUID topicId, Set<UUID> otherIds) {
        Optional<Topic> onDisk = store.load(desired.name());
        TopicPlan plan = TopicPlan.of(desired, topicId, onDisk, otherIds);
        if (plan instanceof TopicPlan.Refuse refuse) {
            return new Refused(refuse.refusal());
        }
        TopicPlan.Materialize change = (TopicPlan.Materialize) plan;
        Topic target = change.target();
        int existing = change.existingPartitions();
        if (target.partitionCount() > existing && desired.openVolumes().isEmpty()) {
            return new Refused(new Refusal(Refusal.INVALID_VOLUME_BINDING, "every volume spec.storage selects "
                    + desired.eligibleVolumes() + " is cordoned: new partitions have nowhere to go"));
        }
        change.reclaim().ifPresent(previous -> {
            LOG.info("topic {}: reclaiming the directory of its previous incarnation (id {}) for id {}", target.name(),
                    previous.id(), topicId);
            store.delete(previous); // the stamp first: from then on no broker opens that incarnation
        });
        if (existing == 0) {
            pool.deleteTopic(files, target.name()); // a previous incarnation's partitions on the members
        }
        VolumePlacement placement = VolumePlacement.place(placementsSoFar(target.name(), existing,
                target.partitionCount()), existing, target.partitionCount(), desired.eligibleVolumes(),
                desired.openVolumes());
        for (int p = existing; p < target.partitionCount(); p++) {
            createPartition(target.name(), p, placement.assignments().get(Integer.toString(p)));
        }
        if (change.rewriteDefinition()) {
            store.save(target);
            LOG.info("topic {} (id {}): {} partitions, overrides {}", target.name(), topicId, target.partitionCount(),
                    target.configs());
        }
        return new Materialized(target, placement);
    }

    /**
     * Where the partitions already placed are: an existing partition where its record says; a new one whose directory on
     * the data volume already holds a log (an adopted directory's) stays there, with its records. The other new ones
     * are placed by the binding, a record an interrupted attempt left notwithstanding.
     */
    private Map<String, String> placementsSoFar(String topic, int existing, int partitions) {
        Map<String, String> placed = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            Path dir = layout.partitionDir(topic, p);
            String key = Integer.toString(p);
            if (p < existing) {
                PartitionState.Placement.inForce(files.list(dir))
                        .flatMap(record -> files.read(dir.resolve(record), PartitionState.Placement.class))
                        .ifPresent(placement -> placed.put(key, placement.logDir()));
            } else if (files.list(dir).stream().anyMatch(name -> SegmentName.parseLogFile(name).isPresent())) {
                placed.put(key, PoolVolume.DEFAULT_NAME);
            }
        }
        return placed;
    }

    /**
     * A new partition: its directory on {@code volume} (emptied first: an earlier attempt may have left files, and no
     * broker opened them, the stored count not including the partition), then its directory on the data volume with
     * the record naming {@code volume}, which is what a broker opens it by. Leaders' records there ({@code
     * log-dir.<epoch>.json}, which would win over it) can only be a previous incarnation's: they go first.
     */
    private void createPartition(String topic, int partition, String volume) {
        if (!volume.equals(PoolVolume.DEFAULT_NAME)) {
            Path dir = pool.layout(volume).partitionDir(topic, partition);
            files.deleteTree(dir);
            files.createDirectories(dir);
        }
        Path anchor = layout.partitionDir(topic, partition);
        for (String name : files.list(anchor)) {
            if (PartitionState.Placement.isRecord(name) && !name.equals(PartitionState.Placement.FILE)) {
                files.delete(anchor.resolve(name));
            }
        }
        files.write(anchor.resolve(PartitionState.Placement.FILE), PartitionState.Placement.created(volume));
    }
}
