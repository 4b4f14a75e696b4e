package io.kaas.adapter.fs;

import io.kaas.application.port.out.MarkerQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The marker queue, {@code __cluster/marker_queue/to-<broker>/<pid>-<epoch>.json}: the coordinator
 * writes an entry atomically for each broker leading some of its transaction's partitions; the
 * target applies it and deletes it. Named by producer and epoch, so a retried dispatch overwrites.
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
        files.write(file(targetBroker, markers.producerId(), markers.producerEpoch()), markers);
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
    public void remove(int brokerId, long producerId, short producerEpoch) {
        files.delete(file(brokerId, producerId, producerEpoch));
    }

    private Path file(int brokerId, long producerId, short producerEpoch) {
        return layout.markerQueue(brokerId).resolve(producerId + "-" + producerEpoch + SUFFIX);
    }
}
