package io.kaas.adapter.fs;

import io.kaas.application.port.out.ProducerFenceLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fence logs, {@code __cluster/producer_fences/from-<broker>.json}: each broker writes only its
 * own file (the newest epoch per producer, rewritten atomically) and reads its peers'.
 */
public final class JsonProducerFenceLog implements ProducerFenceLog {
    private final DataLayout layout;
    private final JsonFiles files;
    private final int brokerId;

    public JsonProducerFenceLog(DataLayout layout, JsonFiles files, int brokerId) {
        this.layout = layout;
        this.files = files;
        this.brokerId = brokerId;
    }

    @Override
    public synchronized void append(Fence fence) {
        Map<Long, Fence> fences = byProducer(read(brokerId));
        fences.merge(fence.producerId(), fence, (a, b) -> a.producerEpoch() >= b.producerEpoch() ? a : b);
        write(fences);
    }

    @Override
    public List<Fence> read(int broker) {
        return files.read(layout.producerFences(broker), FenceFile.class)
                .map(f -> f.fences() == null ? List.<Fence>of() : f.fences()).orElse(List.of());
    }

    @Override
    public synchronized void prune(long beforeMs) {
        List<Fence> current = read(brokerId);
        Map<Long, Fence> kept = byProducer(current);
        kept.values().removeIf(f -> f.atMs() < beforeMs);
        if (kept.size() != current.size()) {
            write(kept);
        }
    }

    private void write(Map<Long, Fence> fences) {
        List<Fence> sorted = new ArrayList<>(fences.values());
        sorted.sort(Comparator.comparingLong(Fence::producerId));
        files.write(layout.producerFences(brokerId), new FenceFile(brokerId, sorted));
    }

    private static Map<Long, Fence> byProducer(List<Fence> fences) {
        Map<Long, Fence> map = new LinkedHashMap<>();
        fences.forEach(f -> map.put(f.producerId(), f));
        return map;
    }

    record FenceFile(int broker, List<Fence> fences) {
    }
}
