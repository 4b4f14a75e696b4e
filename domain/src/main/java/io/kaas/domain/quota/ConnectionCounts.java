package io.kaas.domain.quota;

import java.util.HashMap;
import java.util.Map;

/**
 * The connections a broker holds, in total, per listener and per IP, measured against its {@link ConnectionLimits}
 * as Apache's {@code ConnectionQuotas} measures them: a listener has a free slot while it is below its own maximum
 * and the broker below {@code max.connections}; a connection that finds its IP already holding its maximum is
 * refused and not counted (Apache counts it and releases it at once). Not thread-safe.
 */
public final class ConnectionCounts {
    private final Map<String, Integer> byIp = new HashMap<>();
    private final Map<String, Integer> byListener = new HashMap<>();
    private int total;

    /** Whether {@code listener} may take one more connection now. */
    public boolean slotAvailable(String listener, ConnectionLimits limits) {
        return byListener.getOrDefault(listener, 0) < limits.maxConnections(listener) && total < limits.maxConnections();
    }

    /**
     * Counts a connection from {@code ip} on {@code listener}.
     *
     * @return whether it was counted; false when its IP already holds its maximum: the connection is to be refused
     */
    public boolean open(String listener, String ip, ConnectionLimits limits) {
        int held = byIp.getOrDefault(ip, 0);
        if (held >= limits.maxConnectionsPerIp(ip)) {
            return false;
        }
        byIp.put(ip, held + 1);
        byListener.merge(listener, 1, Integer::sum);
        total++;
        return true;
    }

    /** A connection {@link #open counted} is gone. */
    public void close(String listener, String ip) {
        byIp.computeIfPresent(ip, (k, n) -> n == 1 ? null : n - 1);
        byListener.computeIfPresent(listener, (k, n) -> n == 1 ? null : n - 1);
        total--;
    }

    /** Connections held from {@code ip}. */
    public int fromIp(String ip) {
        return byIp.getOrDefault(ip, 0);
    }

    /** Connections held by the whole broker. */
    public int total() {
        return total;
    }
}
