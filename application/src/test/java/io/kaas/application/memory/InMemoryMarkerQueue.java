package io.kaas.application.memory;

import io.kaas.application.port.out.MarkerQueue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The marker queue in memory: entries by target broker, then by producer id and epoch. */
public final class InMemoryMarkerQueue implements MarkerQueue {
    private final Map<Integer, Map<String, QueuedMarkers>> queues = new ConcurrentHashMap<>();

    @Override
    public void enqueue(int targetBroker, QueuedMarkers markers) {
        queues.computeIfAbsent(targetBroker, b -> new ConcurrentHashMap<>())
                .put(key(markers.producerId(), markers.producerEpoch()), markers);
    }

    @Override
    public List<QueuedMarkers> pending(int brokerId) {
        return List.copyOf(queues.getOrDefault(brokerId, Map.of()).values());
    }

    @Override
    public void remove(int brokerId, long producerId, short producerEpoch) {
        Map<String, QueuedMarkers> queue = queues.get(brokerId);
        if (queue != null) {
            queue.remove(key(producerId, producerEpoch));
        }
    }

    private static String key(long producerId, short producerEpoch) {
        return producerId + "-" + producerEpoch;
    }
}
