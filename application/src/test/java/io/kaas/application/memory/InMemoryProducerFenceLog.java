package io.kaas.application.memory;

import io.kaas.application.port.out.ProducerFenceLog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** This broker's fence log in memory: a memory-mode broker has no peers to read it. */
public final class InMemoryProducerFenceLog implements ProducerFenceLog {
    private final int brokerId;
    private final Map<Long, Fence> fences = new ConcurrentHashMap<>();

    public InMemoryProducerFenceLog(int brokerId) {
        this.brokerId = brokerId;
    }

    @Override
    public void append(Fence fence) {
        fences.merge(fence.producerId(), fence, (a, b) -> a.producerEpoch() >= b.producerEpoch() ? a : b);
    }

    @Override
    public List<Fence> read(int broker) {
        return broker == brokerId ? List.copyOf(fences.values()) : List.of();
    }

    @Override
    public void prune(long beforeMs) {
        fences.values().removeIf(f -> f.atMs() < beforeMs);
    }
}
