package io.kaas.domain.quota;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Apache Kafka 3.7's broker connection limits ({@code ConnectionQuotas}), as configured: how many connections the
 * broker, each listener and each IP may hold, and how fast the broker and each listener accept new ones. Every limit
 * defaults to {@link Integer#MAX_VALUE}, which is no limit.
 *
 * @param maxConnections          {@code max.connections}: connections the whole broker holds at most
 * @param maxConnectionsPerIp     {@code max.connections.per.ip}: connections one IP holds at most
 * @param perIpOverrides          {@code max.connections.per.ip.overrides}, each host's own maximum, keyed by the host
 *                                as written (a name or an address literal; the caller matches it to addresses)
 * @param maxConnectionCreationRate {@code max.connection.creation.rate}: connections the broker accepts per second
 * @param listenerMaxConnections  each listener's {@code max.connections}: its {@code listener.name.<l>.} value, else
 *                                the broker-wide one (Apache configures a listener with its prefix overriding)
 * @param listenerCreationRates   each listener's {@code max.connection.creation.rate}, resolved the same way
 */
public record ConnectionLimits(int maxConnections, int maxConnectionsPerIp, Map<String, Integer> perIpOverrides,
                               int maxConnectionCreationRate, Map<String, Integer> listenerMaxConnections,
                               Map<String, Integer> listenerCreationRates) {
    public static final String MAX_CONNECTIONS = "max.connections";
    public static final String MAX_CONNECTIONS_PER_IP = "max.connections.per.ip";
    public static final String MAX_CONNECTIONS_PER_IP_OVERRIDES = "max.connections.per.ip.overrides";
    public static final String MAX_CONNECTION_CREATION_RATE = "max.connection.creation.rate";
    /** Apache's default of every limit: none. */
    public static final int UNLIMITED = Integer.MAX_VALUE;
    public static final ConnectionLimits NONE = new ConnectionLimits(UNLIMITED, UNLIMITED, Map.of(), UNLIMITED,
            Map.of(), Map.of());

    public ConnectionLimits {
        // in the order written: DescribeConfigs shows them as they were configured
        perIpOverrides = Collections.unmodifiableMap(new LinkedHashMap<>(perIpOverrides));
        listenerMaxConnections = Map.copyOf(listenerMaxConnections);
        listenerCreationRates = Map.copyOf(listenerCreationRates);
    }

    /**
     * The limits a broker's effective configs set.
     *
     * @param effective each config's effective value, by name (null when unset)
     * @param listeners the broker's listeners: each one's name as Apache's configs know it (its
     *                  {@code listener.name.} prefix), by the name the limits are asked with
     */
    public static ConnectionLimits of(Function<String, String> effective, Map<String, String> listeners) {
        int max = intOf(effective.apply(MAX_CONNECTIONS));
        int rate = intOf(effective.apply(MAX_CONNECTION_CREATION_RATE));
        Map<String, Integer> listenerMax = new LinkedHashMap<>();
        Map<String, Integer> listenerRate = new LinkedHashMap<>();
        listeners.forEach((listener, apacheName) -> {
            listenerMax.put(listener, intOr(effective.apply(listenerConfig(apacheName, MAX_CONNECTIONS)), max));
            listenerRate.put(listener, intOr(effective.apply(listenerConfig(apacheName, MAX_CONNECTION_CREATION_RATE)),
                    rate));
        });
        String overrides = effective.apply(MAX_CONNECTIONS_PER_IP_OVERRIDES);
        return new ConnectionLimits(max, intOf(effective.apply(MAX_CONNECTIONS_PER_IP)),
                parseOverrides(overrides == null ? "" : overrides), rate, listenerMax, listenerRate);
    }

    /** {@code listener.name.<listener>.<config>}: Apache's prefix takes the listener's name in lower case. */
    public static String listenerConfig(String apacheName, String config) {
        return "listener.name." + apacheName.toLowerCase(Locale.ROOT) + "." + config;
    }

    /**
     * {@code host:count,...} as Apache reads it: items split at commas, each at its last colon (so an IPv6 literal
     * keeps its own), blanks trimmed.
     *
     * @throws NumberFormatException when a count is not an integer
     * @throws StringIndexOutOfBoundsException when an item has no colon, as Apache's parsing does
     */
    public static Map<String, Integer> parseOverrides(String raw) {
        Map<String, Integer> overrides = new LinkedHashMap<>();
        if (raw.isEmpty()) {
            return overrides;
        }
        for (String item : raw.split("\\s*,\\s*")) {
            int colon = item.lastIndexOf(':');
            overrides.put(item.substring(0, colon).trim(), Integer.parseInt(item.substring(colon + 1).trim()));
        }
        return overrides;
    }

    /** Whether any limit is set: without one, connections need no counting. */
    public boolean isUnlimited() {
        return maxConnections == UNLIMITED && maxConnectionsPerIp == UNLIMITED && perIpOverrides.isEmpty()
                && maxConnectionCreationRate == UNLIMITED
                && listenerMaxConnections.values().stream().allMatch(v -> v == UNLIMITED)
                && listenerCreationRates.values().stream().allMatch(v -> v == UNLIMITED);
    }

    /** A listener's maximum connections; the broker-wide one for a listener these limits were not built with. */
    public int maxConnections(String listener) {
        return listenerMaxConnections.getOrDefault(listener, maxConnections);
    }

    /** A listener's connection creation rate; the broker-wide one for a listener these limits were not built with. */
    public int creationRate(String listener) {
        return listenerCreationRates.getOrDefault(listener, maxConnectionCreationRate);
    }

    /**
     * These limits with the overrides keyed by address: {@code resolve} answers a host's canonical address literal,
     * or null when it has none (that override then matches no connection).
     */
    public ConnectionLimits withOverrideAddresses(Function<String, String> resolve) {
        Map<String, Integer> byAddress = new LinkedHashMap<>();
        perIpOverrides.forEach((host, count) -> {
            String address = resolve.apply(host);
            if (address != null) {
                byAddress.put(address, count);
            }
        });
        return new ConnectionLimits(maxConnections, maxConnectionsPerIp, byAddress, maxConnectionCreationRate,
                listenerMaxConnections, listenerCreationRates);
    }

    /** The connections {@code address} may hold: its override, else {@code max.connections.per.ip}. */
    public int maxConnectionsPerIp(String address) {
        return perIpOverrides.getOrDefault(address, maxConnectionsPerIp);
    }

    private static int intOf(String value) {
        return intOr(value, UNLIMITED);
    }

    private static int intOr(String value, int fallback) {
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
    }
}
