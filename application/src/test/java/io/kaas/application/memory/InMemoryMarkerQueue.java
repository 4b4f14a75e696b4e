package io.kaas.application.memory;

import io.kaas.application.port.out.MarkerQueue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The marker queue in memory: entries by target broker, then by key. */
public final class InMemoryMarkerQueue implements MarkerQueue {
    private final Map<Integer, Map<String, QueuedMarkers>> queues = new ConcurrentHashMap<>();

    @Override
    public void enqueue(int targetBroker, QueuedMarkers markers) {
        queues.computeIfAbsent(targetBroker, b -> new ConcurrentHashMap<>()).put(markers.key(), markers);
    }

    @Override
    public List<QueuedMarkers> pending(int brokerId) {
        return List.copyOf(queues.getOrDefault(brokerId, Map.of()).values());
    }

    @Override
    public boolean isPending(int brokerId, QueuedMarkers markers) {
        return queues.getOrDefault(brokerId, Map.of()).containsKey(markers.key());
    }

    @Override
    public void remove(int brokerId, QueuedMarkers markers) {
        Map<String, QueuedMarkers> queue = queues.get(brokerId);
        if (queue != null) {
            queue.remove(markers.key());
        }
    }
}
