package io.kaas.application.quota;

import io.kaas.application.port.out.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The sensors of one quota type, one per key (the clients sharing a quota, or an IP), each with its bound cached
 * until the configured quotas change; sensors idle for an hour are dropped, as Apache expires its quota sensors.
 * Safe for any thread: a sensor is locked only while one action runs on it, briefly and never across I/O.
 *
 * @param <K> what a sensor is kept for
 * @param <S> the sensor (not thread-safe itself)
 */
final class QuotaSensors<K, S> {
    /** Apache drops the sensors of a client idle for an hour. */
    static final long INACTIVE_SENSOR_MS = 3_600_000L;
    private static final long SWEEP_INTERVAL_MS = 60_000L;

    /** What runs on a sensor, holding its lock, with the sensor's bound. */
    interface Action<S, R> {
        R apply(S sensor, double bound, long nowMs);
    }

    private final Clock clock;
    private final LongFunction<S> newSensor;
    private final ToLongFunction<S> lastUsedMs;
    private final Map<K, Slot<S>> sensors = new ConcurrentHashMap<>();
    private volatile long nextSweepMs;

    /**
     * @param newSensor  a new sensor, given the time it is made at
     * @param lastUsedMs when a sensor was last used
     */
    QuotaSensors(Clock clock, LongFunction<S> newSensor, ToLongFunction<S> lastUsedMs) {
        this.clock = clock;
        this.newSensor = newSensor;
        this.lastUsedMs = lastUsedMs;
        this.nextSweepMs = clock.nowMs() + SWEEP_INTERVAL_MS;
    }

    /**
     * Runs {@code action} on {@code key}'s sensor, made if need be, now.
     *
     * @param quotas the configured quotas the bound comes from: the cached bound is resolved again when it changes
     * @param bound  the key's bound under {@code quotas}
     */
    <Q, R> R apply(K key, Q quotas, ToDoubleFunction<K> bound, Action<S, R> action) {
        long now = clock.nowMs();
        if (now >= nextSweepMs) {
            sweep(now);
        }
        Slot<S> slot = sensors.get(key);
        if (slot == null) {
            slot = sensors.computeIfAbsent(key, k -> new Slot<>(newSensor.apply(now)));
        }
        synchronized (slot) {
            if (slot.boundOf != quotas) {
                slot.boundOf = quotas;
                slot.bound = bound.applyAsDouble(key);
            }
            return action.apply(slot.sensor, slot.bound, now);
        }
    }

    /** Sensors held now: for tests and diagnostics. */
    int size() {
        return sensors.size();
    }

    /** Drops the sensors idle for an hour, so keys that come and go do not pile up. */
    private void sweep(long now) {
        nextSweepMs = now + SWEEP_INTERVAL_MS;
        sensors.values().removeIf(slot -> {
            synchronized (slot) {
                return now - lastUsedMs.applyAsLong(slot.sensor) >= INACTIVE_SENSOR_MS;
            }
        });
    }

    /** A sensor and its bound, resolved again only when the configured quotas change; guarded by itself. */
    private static final class Slot<S> {
        final S sensor;
        Object boundOf;
        double bound;

        Slot(S sensor) {
            this.sensor = sensor;
        }
    }
}
