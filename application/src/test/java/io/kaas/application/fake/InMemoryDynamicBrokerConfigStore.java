package io.kaas.application.fake;

import io.kaas.application.port.out.DynamicBrokerConfigStore;
import java.util.Map;
import java.util.TreeMap;

/** Dynamic broker configs kept in memory, as the JSON store would keep them on disk. */
public final class InMemoryDynamicBrokerConfigStore implements DynamicBrokerConfigStore {
    private final Map<String, Map<String, String>> stored = new TreeMap<>();

    @Override
    public synchronized Map<String, Map<String, String>> load() {
        return Map.copyOf(stored);
    }

    @Override
    public synchronized void save(String resource, Map<String, String> configs) {
        if (configs.isEmpty()) {
            stored.remove(resource);
        } else {
            stored.put(resource, Map.copyOf(configs));
        }
    }
}
