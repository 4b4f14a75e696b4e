package io.kaas.application.quota;

import io.kaas.application.port.out.Clock;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaSensor;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.quota.SensorKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One quota type's enforcement, as Apache's ClientQuotaManager: each client's usage is recorded in the sensor its
 * quota entity shares ({@link QuotaLimits#sensorKey}), and a client above its bound is told how long to back off.
 * The bounds come from a snapshot swapped when the configured quotas change; nothing is recorded while none is
 * configured. Safe for any thread: a sensor is locked only while one value is recorded, briefly and never across
 * I/O; allocates nothing per record, a little per request.
 */
public final class ClientQuotaManager {
    /** Apache drops the sensors of a client idle for an hour. */
    static final long INACTIVE_SENSOR_MS = 3_600_000L;
    private static final long SWEEP_INTERVAL_MS = 60_000L;

    private final QuotaType type;
    private final Supplier<QuotaLimits> limits;
    private final QuotaWindow window;
    private final Clock clock;
    private final Map<SensorKey, Slot> sensors = new ConcurrentHashMap<>();
    private volatile long nextSweepMs;

    public ClientQuotaManager(QuotaType type, Supplier<QuotaLimits> limits, QuotaWindow window, Clock clock) {
        this.type = type;
        this.limits = limits;
        this.window = window;
        this.clock = clock;
        this.nextSweepMs = clock.nowMs() + SWEEP_INTERVAL_MS;
    }

    public QuotaType type() {
        return type;
    }

    /**
     * Records what a client used and answers how long it must be throttled for it.
     *
     * @param user     the principal's name
     * @param clientId the request header's client id
     * @return the throttle time in milliseconds; 0 within the quota or without one
     */
    public int recordAndThrottleMs(String user, String clientId, double value) {
        QuotaLimits current = limits.get();
        if (current.isEmpty()) {
            return 0;
        }
        long now = clock.nowMs();
        Slot slot = slot(current, user, clientId, now);
        synchronized (slot) {
            return slot.sensor.recordAndThrottleMs(value, slot.bound(current), now);
        }
    }

    /** Takes back a value {@link #recordAndThrottleMs} recorded: what a throttled fetch did not send. */
    public void unrecord(String user, String clientId, double value) {
        QuotaLimits current = limits.get();
        if (current.isEmpty()) {
            return;
        }
        long now = clock.nowMs();
        Slot slot = slot(current, user, clientId, now);
        synchronized (slot) {
            slot.sensor.unrecord(value, now);
        }
    }

    /**
     * The most a client may take in one response without being certain to be throttled (Apache's
     * {@code getMaxValueInQuotaWindow}): its bound over all samples but the filling one; MAX_VALUE without a quota.
     */
    public int maxValueInWindow(String user, String clientId) {
        QuotaLimits current = limits.get();
        if (current.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        double bound = current.bound(current.sensorKey(user, clientId));
        return (int) Math.min(window.maxValueInWindow(bound), Integer.MAX_VALUE);
    }

    /** Sensors held now: for tests and diagnostics. */
    int sensorCount() {
        return sensors.size();
    }

    private Slot slot(QuotaLimits current, String user, String clientId, long now) {
        if (now >= nextSweepMs) {
            sweep(now);
        }
        SensorKey key = current.sensorKey(user, clientId == null ? "" : clientId);
        Slot slot = sensors.get(key);
        return slot != null ? slot : sensors.computeIfAbsent(key, k -> new Slot(k, new QuotaSensor(window, now)));
    }

    /** Drops the sensors of clients idle for an hour, so client ids that come and go do not pile up. */
    private void sweep(long now) {
        nextSweepMs = now + SWEEP_INTERVAL_MS;
        sensors.values().removeIf(slot -> {
            synchronized (slot) {
                return now - slot.sensor.lastRecordMs() >= INACTIVE_SENSOR_MS;
            }
        });
    }

    /** A sensor and its bound, resolved again only when the limits change. */
    private static final class Slot {
        final SensorKey key;
        final QuotaSensor sensor;
        private QuotaLimits boundOf;
        private double bound;

        Slot(SensorKey key, QuotaSensor sensor) {
            this.key = key;
            this.sensor = sensor;
        }

        /** Called holding the slot's lock. */
        double bound(QuotaLimits current) {
            if (boundOf != current) {
                boundOf = current;
                bound = current.bound(key);
            }
            return bound;
        }
    }
}
