package io.kaas.domain.quota;

import java.util.Map;

/**
 * The bounds configured for one quota type (produce bytes, fetch bytes or request percentage), resolved for a
 * client as Apache 3.7's default quota callback resolves them: the most specific entity that has a quota wins,
 * in this order —
 * <ol>
 *   <li>(user, client-id), (user, default client-id)</li>
 *   <li>user</li>
 *   <li>(default user, client-id), (default user, default client-id)</li>
 *   <li>default user</li>
 *   <li>client-id, default client-id</li>
 * </ol>
 * The entity that won decides which clients share a sensor ({@link #sensorKey}); when quotas are configured at a
 * single level only, that level alone decides, whether or not the client has a quota (Apache's optimisation, which
 * is visible in how usage is shared).
 */
public final class QuotaLimits {
    public static final QuotaLimits NONE = new QuotaLimits(Map.of());
    /** No quota: nothing is ever throttled. */
    public static final double UNLIMITED = Double.POSITIVE_INFINITY;

    private static final int CLIENT_ID_LEVEL = 1;
    private static final int USER_LEVEL = 2;
    private static final int USER_CLIENT_ID_LEVEL = 4;

    private final Map<QuotaEntity, Double> bounds;
    private final int levels;

    private QuotaLimits(Map<QuotaEntity, Double> bounds) {
        this.bounds = bounds;
        int found = 0;
        for (QuotaEntity entity : bounds.keySet()) {
            found |= entity.user() == null ? CLIENT_ID_LEVEL
                    : entity.clientId() == null ? USER_LEVEL : USER_CLIENT_ID_LEVEL;
        }
        this.levels = found;
    }

    /** @param bounds each entity's quota (per second; a percentage for request quotas) */
    public static QuotaLimits of(Map<QuotaEntity, Double> bounds) {
        return bounds.isEmpty() ? NONE : new QuotaLimits(Map.copyOf(bounds));
    }

    /** Whether any quota is configured: without one nothing needs recording. */
    public boolean isEmpty() {
        return bounds.isEmpty();
    }

    /** The sensor a client's usage is recorded in (Apache's {@code quotaMetricTags}). */
    public SensorKey sensorKey(String user, String clientId) {
        return switch (levels) {
            case 0, CLIENT_ID_LEVEL -> new SensorKey("", clientId);
            case USER_LEVEL -> new SensorKey(user, "");
            case USER_CLIENT_ID_LEVEL -> new SensorKey(user, clientId);
            default -> mixedLevelKey(user, clientId);
        };
    }

    private SensorKey mixedLevelKey(String user, String clientId) {
        QuotaEntity.Name named = QuotaEntity.Name.of(user);
        QuotaEntity.Name client = QuotaEntity.Name.of(clientId);
        if (has(named, client) || has(named, QuotaEntity.Name.DEFAULT)) {
            return new SensorKey(user, clientId);
        }
        if (has(named, null)) {
            return new SensorKey(user, "");
        }
        if (has(QuotaEntity.Name.DEFAULT, client) || has(QuotaEntity.Name.DEFAULT, QuotaEntity.Name.DEFAULT)) {
            return new SensorKey(user, clientId);
        }
        if (has(QuotaEntity.Name.DEFAULT, null)) {
            return new SensorKey(user, "");
        }
        return new SensorKey("", clientId);
    }

    /** The bound of the sensor {@code key} names (Apache's {@code quotaLimit}); {@link #UNLIMITED} for none. */
    public double bound(SensorKey key) {
        Double bound = null;
        boolean user = !key.user().isEmpty();
        boolean client = !key.clientId().isEmpty();
        if (user && client) {
            QuotaEntity.Name named = QuotaEntity.Name.of(key.user());
            QuotaEntity.Name clientId = QuotaEntity.Name.of(key.clientId());
            bound = first(new QuotaEntity(named, clientId), new QuotaEntity(named, QuotaEntity.Name.DEFAULT),
                    new QuotaEntity(QuotaEntity.Name.DEFAULT, clientId),
                    new QuotaEntity(QuotaEntity.Name.DEFAULT, QuotaEntity.Name.DEFAULT));
        } else if (user) {
            bound = first(QuotaEntity.user(QuotaEntity.Name.of(key.user())), QuotaEntity.user(QuotaEntity.Name.DEFAULT));
        } else if (client) {
            bound = first(QuotaEntity.clientId(QuotaEntity.Name.of(key.clientId())),
                    QuotaEntity.clientId(QuotaEntity.Name.DEFAULT));
        }
        return bound == null ? UNLIMITED : bound;
    }

    private Double first(QuotaEntity... candidates) {
        for (QuotaEntity candidate : candidates) {
            Double bound = bounds.get(candidate);
            if (bound != null) {
                return bound;
            }
        }
        return null;
    }

    private boolean has(QuotaEntity.Name user, QuotaEntity.Name clientId) {
        return bounds.containsKey(new QuotaEntity(user, clientId));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuotaLimits other && bounds.equals(other.bounds);
    }

    @Override
    public int hashCode() {
        return bounds.hashCode();
    }

    @Override
    public String toString() {
        return "QuotaLimits" + bounds;
    }
}
