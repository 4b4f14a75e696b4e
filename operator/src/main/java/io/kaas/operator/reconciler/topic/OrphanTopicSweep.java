package io.kaas.operator.reconciler.topic;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.k8s.TopicClaims;
import io.kaas.adapter.k8s.TopicResourceNames;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims topic directories no KafkaTopic declares: the other half of deleting a KafkaTopic, which has no finalizer.
 *
 * <p>It touches only directories at the volume's root named as a Kafka topic and not starting with {@code __} (so
 * never {@code __cluster/}, files, temp files or {@code lost+found}). It lists those first and the KafkaTopics after,
 * so a directory created after the listing is not a candidate; under the topic's lock it then removes a candidate only
 * if its stamp is still the one listed, so a KafkaTopic created meanwhile that adopted or re-stamped the directory
 * keeps it. The stamp goes first: a pass interrupted there leaves an unstamped directory, which the next pass removes.
 *
 * <p>It runs per root: a topic's directories on the volume pool's members go with it, and a member's topic directory
 * no KafkaTopic declares is an orphan too (its topic's removal was interrupted), removed under the same checks.
 */
public final class OrphanTopicSweep implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanTopicSweep.class);

    private final DataLayout layout;
    private final JsonFiles files;
    private final JsonTopicStore store;
    private final TopicLocks locks;
    private final PoolRoots pool;
    private final Supplier<Set<String>> declaredTopics;

    /**
     * @param declaredTopics every topic name a KafkaTopic declares, listed from the API server (not a cache that may
     *                       not have synced); throws when it cannot list, and the pass is skipped
     */
    public OrphanTopicSweep(DataLayout layout, JsonFiles files, JsonTopicStore store, TopicLocks locks, PoolRoots pool,
                            Supplier<Set<String>> declaredTopics) {
        this.layout = layout;
        this.files = files;
        this.store = store;
        this.locks = locks;
        this.pool = pool;
        this.declaredTopics = declaredTopics;
    }

    /** One pass; the number of directories removed. */
    public int sweep() {
        Map<String, Optional<UUID>> candidates = new LinkedHashMap<>();
        for (String name : files.list(layout.root())) {
            if (isTopicDirectory(layout, name)) {
                candidates.put(name, stamp(name));
            }
        }
        for (String member : pool.names()) {
            DataLayout root = pool.layout(member);
            for (String name : files.list(root.root())) {
                if (!candidates.containsKey(name) && isTopicDirectory(root, name)) {
                    candidates.put(name, stamp(name));
                }
            }
        }
        Set<String> declared = declaredTopics.get();
        int removed = 0;
        for (Map.Entry<String, Optional<UUID>> candidate : candidates.entrySet()) {
            String name = candidate.getKey();
            if (!declared.contains(name) && locks.withLock(name, () -> removeIfUnchanged(name, candidate.getValue()))) {
                removed++;
            }
        }
        return removed;
    }

    /**
     * Reclaims the directory of a KafkaTopic whose deletion was just seen, rather than on the next pass: only if no
     * KafkaTopic declares its name now (listed from the API server) and its stamp is still {@code deletedId}, checked
     * under the topic's lock, so a KafkaTopic created again meanwhile keeps what its reconcile adopted or re-stamped.
     *
     * @return whether the directory was removed
     */
    public boolean reclaim(String name, UUID deletedId) {
        if (!isTopicName(name) || declaredTopics.get().contains(name)) {
            return false;
        }
        return locks.withLock(name, () -> removeIfUnchanged(name, Optional.of(deletedId)));
    }

    /**
     * Reclaims the directory of {@code deleted}, a KafkaTopic whose deletion was just seen, as {@link #reclaim(String,
     * UUID)} does; one never given an id was never materialised, and nothing on the volume is its.
     */
    public void reclaim(KafkaTopic deleted) {
        Optional<UUID> id = Optional.ofNullable(deleted.getStatus()).map(KafkaTopicStatus::getTopicId)
                .flatMap(TopicClaims::parse);
        if (id.isPresent() && !reclaim(TopicResourceNames.topicName(deleted), id.get())) {
            LOG.debug("KafkaTopic {} deleted; its directory is not (or no longer) its to remove",
                    deleted.getMetadata().getName());
        }
    }

    @Override
    public void run() {
        try {
            int removed = sweep();
            LOG.debug("orphan sweep: {} topic director{} without a KafkaTopic removed", removed,
                    removed == 1 ? "y" : "ies"); // each removal is logged at INFO where it happens
        } catch (RuntimeException e) {
            LOG.warn("orphan sweep failed; the next pass retries", e);
        }
    }

    private static boolean isTopicName(String name) {
        return !name.startsWith("__") && TopicNames.validate(name).isEmpty();
    }

    private boolean isTopicDirectory(DataLayout root, String name) {
        return isTopicName(name) && files.isDirectory(root.topicDir(name));
    }

    private boolean existsOnAnyRoot(String name) {
        return isTopicDirectory(layout, name) || pool.names().stream().anyMatch(m -> isTopicDirectory(pool.layout(m), name));
    }

    private Optional<UUID> stamp(String name) {
        return store.load(name).map(Topic::id);
    }

    private boolean removeIfUnchanged(String name, Optional<UUID> listed) {
        Optional<Topic> now = store.load(name);
        if (!now.map(Topic::id).equals(listed) || !existsOnAnyRoot(name)) {
            return false; // re-stamped or removed since the listing: not the orphan that was listed
        }
        if (now.isPresent()) {
            store.delete(now.get());
        } else {
            files.deleteTree(layout.topicDir(name));
        }
        pool.deleteTopic(files, name); // after the stamp: an interrupted removal leaves only what the next pass finds
        LOG.info("removed topic directory {} (id {}): no KafkaTopic declares it", name,
                listed.map(UUID::toString).orElse("none"));
        return true;
    }
}
