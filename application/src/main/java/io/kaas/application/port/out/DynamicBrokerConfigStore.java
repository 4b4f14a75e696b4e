package io.kaas.application.port.out;

import java.util.Map;

/**
 * The dynamic broker configs set through IncrementalAlterConfigs and AlterConfigs (standalone:
 * {@code __cluster/broker-configs.json}), by resource: the empty name for the cluster-wide
 * defaults, a broker id for that broker's own. Both calls do file I/O: call them from an I/O thread.
 */
public interface DynamicBrokerConfigStore {

    /**
     * Every stored resource's configs; empty before anything was set.
     *
     * @throws java.io.UncheckedIOException when the file exists but cannot be read or parsed
     */
    Map<String, Map<String, String>> load();

    /**
     * Replaces one resource's configs (an empty map removes them); durable when it returns
     * (temp + fsync + rename).
     *
     * @throws java.io.UncheckedIOException when they could not be made durable
     */
    void save(String resource, Map<String, String> configs);
}
