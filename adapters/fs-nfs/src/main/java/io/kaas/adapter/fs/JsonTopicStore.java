package io.kaas.adapter.fs;

import io.kaas.application.port.out.TopicStore;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import io.kaas.domain.topic.TopicNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topic definitions as JSON in each topic's directory: {@code .config.json} (partition count and
 * overrides), then {@code .topic-id.json} (the incarnation stamp). The stamp is written last on
 * create and removed first on delete, so a directory without it is a half-created or half-deleted
 * topic: it does not exist, and a standalone broker's next load clears it away. On a volume shared
 * by a cluster ({@link #shared}) such a directory may be another broker's create in progress: it is
 * skipped, never removed.
 */
public final class JsonTopicStore implements TopicStore {
    private static final Logger LOG = LoggerFactory.getLogger(JsonTopicStore.class);

    private final DataLayout layout;
    private final JsonFiles files;
    private final boolean clearsUnfinished;

    /** A standalone broker's topics: it alone writes them, so what it finds unfinished was interrupted. */
    public JsonTopicStore(DataLayout layout, JsonFiles files) {
        this(layout, files, true);
    }

    private JsonTopicStore(DataLayout layout, JsonFiles files, boolean clearsUnfinished) {
        this.layout = layout;
        this.files = files;
        this.clearsUnfinished = clearsUnfinished;
    }

    /** Topics on a volume every broker of a cluster writes: an unfinished one may be in progress elsewhere. */
    public static JsonTopicStore shared(DataLayout layout, JsonFiles files) {
        return new JsonTopicStore(layout, files, false);
    }

    @Override
    public List<Topic> loadAll() {
        List<Topic> topics = new ArrayList<>();
        for (String name : files.list(layout.root())) {
            Path dir = layout.root().resolve(name);
            if (name.equals(DataLayout.CLUSTER_DIR) || TopicNames.validate(name).isPresent() || !files.isDirectory(dir)) {
                continue; // cluster state, or not a topic at all (lost+found at an ext4 volume's root)
            }
            Optional<Topic> topic = load(name);
            if (topic.isPresent()) {
                topics.add(topic.get());
            } else if (clearsUnfinished) {
                LOG.warn("removing {}: it has no {} (an interrupted create or delete)", dir, layout.topicId(name).getFileName());
                files.deleteTree(dir);
            }
        }
        return topics;
    }

    /**
     * The topic stored under {@code name}: empty when its directory is missing or unfinished (no stamp, or no
     * {@code .config.json}), which {@link #loadAll} would skip or clear.
     */
    public Optional<Topic> load(String name) {
        Optional<TopicIdFile> id = files.read(layout.topicId(name), TopicIdFile.class);
        Optional<TopicConfigFile> config = files.read(layout.topicConfig(name), TopicConfigFile.class);
        if (id.isEmpty() || config.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Topic(name, TopicIds.fromBase64(id.get().topicId()), config.get().partitions(),
                config.get().configs() == null ? Map.of() : config.get().configs()));
    }

    @Override
    public void save(Topic topic) {
        files.write(layout.topicConfig(topic.name()), new TopicConfigFile(topic.partitionCount(), topic.configs()));
        files.write(layout.topicId(topic.name()), new TopicIdFile(TopicIds.toBase64(topic.id())));
    }

    /**
     * Removes the stamp durably - from then on the topic does not exist - then the directory. Throws
     * only while the topic may still exist: once the stamp is gone, a directory that could not be
     * removed is left for the next load to clear.
     */
    @Override
    public void delete(Topic topic) {
        files.delete(layout.topicId(topic.name()));
        try {
            files.deleteTree(layout.topicDir(topic.name()));
        } catch (RuntimeException e) {
            LOG.warn("topic {} is deleted, but its directory could not be removed; the next start clears it",
                    topic.name(), e);
        }
    }

    /** {@code .topic-id.json}. */
    record TopicIdFile(String topicId) {
    }

    /** {@code .config.json}. */
    record TopicConfigFile(int partitions, Map<String, String> configs) {
    }
}
