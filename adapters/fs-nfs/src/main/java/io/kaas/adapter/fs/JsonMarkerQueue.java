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

    public JsonMarkerQueue(DataLayout layout) {
        this.layout = layout;
    }

    @Override
    public void enqueue(int targetBroker, QueuedMarkers markers) {
        Json.write(file(targetBroker, markers.producerId(), markers.producerEpoch()), markers);
    }

    @Override
    public List<QueuedMarkers> pending(int brokerId) {
        Path dir = layout.markerQueue(brokerId);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<QueuedMarkers> entries = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                if (file.getFileName().toString().endsWith(SUFFIX)) {
                    Json.read(file, QueuedMarkers.class).ifPresent(entries::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return entries;
    }

    @Override
    public void remove(int brokerId, long producerId, short producerEpoch) {
        AtomicFiles.delete(file(brokerId, producerId, producerEpoch));
    }

    private Path file(int brokerId, long producerId, short producerEpoch) {
        return layout.markerQueue(brokerId).resolve(producerId + "-" + producerEpoch + SUFFIX);
    }
}
