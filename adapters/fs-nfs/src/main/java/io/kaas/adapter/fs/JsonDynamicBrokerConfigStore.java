package io.kaas.adapter.fs;

import io.kaas.application.port.out.DynamicBrokerConfigStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code __cluster/broker-configs.json}: a format version, the cluster-wide dynamic defaults and
 * each broker's own dynamic configs by broker id, every value as it was set. Written whole with
 * temp + fsync + rename; saves are serialised, as each rewrites the whole file.
 */
public final class JsonDynamicBrokerConfigStore implements DynamicBrokerConfigStore {
    static final int FORMAT_VERSION = 1;

    private final Path file;
    private final JsonFiles files;

    public JsonDynamicBrokerConfigStore(DataLayout layout, JsonFiles files) {
        this.file = layout.brokerConfigsFile();
        this.files = files;
    }

    @Override
    public synchronized Map<String, Map<String, String>> load() {
        return files.read(file, BrokerConfigsFile.class).map(BrokerConfigsFile::byResource).orElse(Map.of());
    }

    @Override
    public synchronized void save(String resource, Map<String, String> configs) {
        Map<String, Map<String, String>> all = new TreeMap<>(load());
        if (configs.isEmpty()) {
            all.remove(resource);
        } else {
            all.put(resource, new TreeMap<>(configs));
        }
        Map<String, Map<String, String>> brokers = new TreeMap<>(all);
        Map<String, String> defaults = brokers.remove("");
        files.write(file, new BrokerConfigsFile(FORMAT_VERSION, defaults == null ? Map.of() : defaults, brokers));
    }

    /** {@code defaults}: the resource named ""; {@code brokers}: by broker id. */
    record BrokerConfigsFile(int version, Map<String, String> defaults, Map<String, Map<String, String>> brokers) {
        Map<String, Map<String, String>> byResource() {
            Map<String, Map<String, String>> all = new TreeMap<>();
            if (brokers != null) {
                all.putAll(brokers);
            }
            if (defaults != null && !defaults.isEmpty()) {
                all.put("", defaults);
            }
            return all;
        }
    }
}
