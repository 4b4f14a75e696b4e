package io.kaas.domain.quota;

import java.util.Map;

/**
 * The {@code connection_creation_rate} quotas configured per IP (KIP-612), resolved as Apache's ConnectionQuotas
 * resolves them: an IP's own quota, else the default IP entity's, else none.
 *
 * @param byIp         each address's quota, keyed by its literal form as {@link #key} writes it
 * @param defaultBound the default IP entity's quota; null for none
 */
public record IpConnectionLimits(Map<String, Double> byIp, Double defaultBound) {
    public static final IpConnectionLimits NONE = new IpConnectionLimits(Map.of(), null);

    public IpConnectionLimits {
        byIp = Map.copyOf(byIp);
    }

    /** Whether any IP has a quota: without one no connection needs recording. */
    public boolean isEmpty() {
        return byIp.isEmpty() && defaultBound == null;
    }

    /** The connections per second {@code ip} may open; {@link QuotaLimits#UNLIMITED} for no quota. */
    public double bound(String ip) {
        Double bound = byIp.get(ip);
        if (bound == null) {
            bound = defaultBound;
        }
        return bound == null ? QuotaLimits.UNLIMITED : bound;
    }
}
