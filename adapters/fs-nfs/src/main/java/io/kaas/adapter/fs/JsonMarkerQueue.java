package io.kaas.adapter.fs;

import io.kaas.application.port.out.MarkerQueue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The marker queue, {@code __cluster/marker_queue/to-<broker>/<key>.json}: the coordinator writes
 * an entry atomically for each broker leading some of its transaction's partitions; the target
 * applies it and deletes it, which tells the coordinator the markers are placed.
 */
public final class JsonMarkerQueue implements MarkerQueue {
    private static final String SUFFIX = ".json";

    private final DataLayout layout;
    private final JsonFiles files;

    public JsonMarkerQueue(DataLayout layout, JsonFiles files) {
        this.layout = layout;
        this.files = files;
    }

    @Override
    public void enqueue(int targetBroker, QueuedMarkers markers) {
        files.write(file(targetBroker, markers), markers);
    }

    @Override
    public List<QueuedMarkers> pending(int brokerId) {
        Path dir = layout.markerQueue(brokerId);
        List<QueuedMarkers> entries = new ArrayList<>();
        for (String name : files.list(dir)) {
            if (name.endsWith(SUFFIX)) {
                files.read(dir.resolve(name), QueuedMarkers.class).ifPresent(entries::add);
            }
        }
        return entries;
    }

    @Override
    public boolean isPending(int brokerId, QueuedMarkers markers) {
        return files.exists(file(brokerId, markers));
    }

    @Override
    public void remove(int brokerId, QueuedMarkers markers) {
        files.delete(file(brokerId, markers));
    }

    private Path file(int brokerId, QueuedMarkers markers) {
        return layout.markerQueue(brokerId).resolve(markers.key() + SUFFIX);
    }
}
