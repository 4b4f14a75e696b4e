package io.kaas.operator.health;

import java.util.Map;

/**
 * Where the operator answers the kubelet's probes, from its pod's environment.
 *
 * @param host {@code KAAS_OPERATOR_HEALTH_HOST}: the address the probe server binds (0.0.0.0: the kubelet probes the
 *             pod's IP)
 * @param port {@code KAAS_OPERATOR_HEALTH_PORT}: its port (8081; 0 picks a free one)
 */
public record HealthSettings(String host, int port) {
    public static final int DEFAULT_PORT = 8081;

    /** Reads the settings; {@link IllegalArgumentException} naming the variable when one is malformed. */
    public static HealthSettings fromEnv(Map<String, String> env) {
        String host = env.getOrDefault("KAAS_OPERATOR_HEALTH_HOST", "0.0.0.0");
        if (host.isBlank()) {
            throw new IllegalArgumentException("KAAS_OPERATOR_HEALTH_HOST is empty; it names the address the health "
                    + "probes bind (default 0.0.0.0)");
        }
        String port = env.getOrDefault("KAAS_OPERATOR_HEALTH_PORT", Integer.toString(DEFAULT_PORT));
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) > 65_535) {
            throw new IllegalArgumentException("KAAS_OPERATOR_HEALTH_PORT must be a port number (0-65535, default "
                    + DEFAULT_PORT + "), not '" + port + "'");
        }
        return new HealthSettings(host, Integer.parseInt(port));
    }
}
