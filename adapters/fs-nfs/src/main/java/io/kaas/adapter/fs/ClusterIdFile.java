package io.kaas.adapter.fs;

import java.util.function.Supplier;

/** The cluster id, minted once and kept in {@code __cluster/cluster.json}. */
public final class ClusterIdFile {
    private ClusterIdFile() {
    }

    /** The stored cluster id, or {@code newId}'s value stored now when there is none. */
    public static String loadOrCreate(DataLayout layout, JsonFiles files, Supplier<String> newId) {
        return files.read(layout.clusterFile(), ClusterFile.class).map(ClusterFile::clusterId).orElseGet(() -> {
            String id = newId.get();
            files.write(layout.clusterFile(), new ClusterFile(id));
            return id;
        });
    }

    record ClusterFile(String clusterId) {
    }
}
