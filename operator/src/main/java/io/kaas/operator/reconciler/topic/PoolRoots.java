package io.kaas.operator.reconciler.topic;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.operator.model.PoolVolume;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where the operator mounts each volume pool member besides the data volume ({@code /vols/<name>}), laid out as the data
 * volume is: {@code <root>/<topic>/<partition>/}. A member holds only the directories of partitions placed on it; the
 * topic's definition and each partition's placement record stay on the data volume.
 *
 * @param members mount points by member name, never {@value PoolVolume#DEFAULT_NAME}
 */
public record PoolRoots(Map<String, Path> members) {

    public PoolRoots {
        members = new LinkedHashMap<>(members);
        if (members.containsKey(PoolVolume.DEFAULT_NAME)) {
            throw new IllegalArgumentException("the data volume is not a pool root");
        }
    }

    /** No member besides the data volume. */
    public static PoolRoots none() {
        return new PoolRoots(Map.of());
    }

    public Set<String> names() {
        return members.keySet();
    }

    /** A member's layout; {@code member} must be one of {@link #names()}. */
    public DataLayout layout(String member) {
        Path root = members.get(member);
        if (root == null) {
            throw new IllegalArgumentException("no pool member is named " + member);
        }
        return new DataLayout(root);
    }

    /**
     * Fails unless every member's root is a directory: one that is not mounted would otherwise be created on the
     * container's own disk, and partitions placed there would be invisible to the brokers.
     */
    public void requireMounted(JsonFiles files) {
        members.forEach((name, root) -> {
            if (!files.isDirectory(root)) {
                throw new IllegalStateException("volume pool member '" + name + "' is not mounted: " + root
                        + " is not a directory");
            }
        });
    }

    /** Removes the topic's directory from every member; what is missing is no error. */
    public void deleteTopic(JsonFiles files, String topic) {
        members.keySet().forEach(member -> files.deleteTree(layout(member).topicDir(topic)));
    }
}
