package io.kaas.application.quota;

import io.kaas.application.port.out.Clock;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.QuotaSensor;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.quota.SensorKey;
import java.util.function.Supplier;

/**
 * One quota type's enforcement, as Apache's ClientQuotaManager: each client's usage is recorded in the sensor its
 * quota entity shares ({@link QuotaLimits#sensorKey}), and a client above its bound is told how long to back off.
 * The bounds come from a snapshot swapped when the configured quotas change; nothing is recorded while none is
 * configured. Safe for any thread; allocates nothing per record, a little per request.
 */
public final class ClientQuotaManager {
    /** Apache drops the sensors of a client idle for an hour. */
    static final long INACTIVE_SENSOR_MS = QuotaSensors.INACTIVE_SENSOR_MS;

    private final QuotaType type;
    private final Supplier<QuotaLimits> limits;
    private final QuotaWindow window;
    private final QuotaSensors<SensorKey, QuotaSensor> sensors;

    public ClientQuotaManager(QuotaType type, Supplier<QuotaLimits> limits, QuotaWindow window, Clock clock) {
        this.type = type;
        this.limits = limits;
        this.window = window;
        this.sensors = new QuotaSensors<>(clock, now -> new QuotaSensor(window, now), QuotaSensor::lastRecordMs);
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
        return sensors.apply(key(current, user, clientId), current, current::bound,
                (sensor, bound, now) -> sensor.recordAndThrottleMs(value, bound, now));
    }

    /** Takes back a value {@link #recordAndThrottleMs} recorded: what a throttled fetch did not send. */
    public void unrecord(String user, String clientId, double value) {
        QuotaLimits current = limits.get();
        if (current.isEmpty()) {
            return;
        }
        sensors.apply(key(current, user, clientId), current, current::bound, (sensor, bound, now) -> {
            sensor.unrecord(value, now);
            return null;
        });
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

    private static SensorKey key(QuotaLimits current, String user, String clientId) {
        return current.sensorKey(user, clientId == null ? "" : clientId);
    }
}
