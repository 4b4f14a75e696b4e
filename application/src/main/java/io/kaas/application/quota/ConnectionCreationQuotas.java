package io.kaas.application.quota;

import io.kaas.application.port.out.Clock;
import io.kaas.domain.quota.IpConnectionLimits;
import io.kaas.domain.quota.QuotaSensor;
import io.kaas.domain.quota.QuotaWindow;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * {@code connection_creation_rate} per IP (KIP-612), as Apache's ConnectionQuotas: each accepted connection is
 * recorded in its IP's windowed rate; one that puts the rate above the IP's quota is taken back out and refused, and
 * the listener closes it once the throttle (at most one quota window) has passed, so a client that reconnects at
 * once is slowed down rather than spinning.
 */
public final class ConnectionCreationQuotas {
    private final Supplier<IpConnectionLimits> limits;
    private final QuotaWindow window;
    private final IntConsumer throttled;
    private final QuotaSensors<String, QuotaSensor> sensors;

    /**
     * @param window    {@code quota.window.num} and {@code .size.seconds}, as Apache measures connection rates
     * @param throttled told each throttle a refused connection earns, in milliseconds
     */
    public ConnectionCreationQuotas(Supplier<IpConnectionLimits> limits, QuotaWindow window, Clock clock,
                                    IntConsumer throttled) {
        this.limits = limits;
        this.window = window;
        this.throttled = throttled;
        this.sensors = new QuotaSensors<>(clock, now -> new QuotaSensor(window, now), QuotaSensor::lastRecordMs);
    }

    /**
     * Records a connection accepted from {@code ip} (its address literal).
     *
     * @return 0 to serve it; else how long to hold it unserved before closing it, in milliseconds
     */
    public int recordAndThrottleMs(String ip) {
        IpConnectionLimits current = limits.get();
        if (current.isEmpty()) {
            return 0;
        }
        String key = IpAddresses.key(ip);
        int throttleMs = sensors.apply(key, current, current::bound, (sensor, bound, now) -> {
            if (Double.isInfinite(bound)) {
                return 0;
            }
            int ms = (int) Math.min(sensor.recordAndThrottleMs(1, bound, now), window.sampleMs());
            if (ms > 0) {
                sensor.unrecord(1, now); // a refused connection does not count
            }
            return ms;
        });
        if (throttleMs > 0) {
            throttled.accept(throttleMs);
        }
        return throttleMs;
    }
}
