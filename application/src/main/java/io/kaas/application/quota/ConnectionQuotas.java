package io.kaas.application.quota;

import io.kaas.application.port.in.ConnectionAdmission;
import io.kaas.application.port.out.Clock;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.quota.ConnectionCounts;
import io.kaas.domain.quota.ConnectionLimits;
import io.kaas.domain.quota.QuotaSensor;
import io.kaas.domain.quota.QuotaWindow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's connection limits as Apache Kafka 3.7's {@code ConnectionQuotas} applies them at accept, in its order:
 * the broker's and the listener's {@code max.connection.creation.rate} are recorded first, and a connection over
 * either is delayed (the listener stops accepting meanwhile) by the time that brings the rate back to the limit, at
 * most one quota sample; then it waits for a slot under the listener's and the broker's {@code max.connections}; then
 * its IP's {@code connection_creation_rate} (KIP-612) is recorded, and one over it is closed after its throttle,
 * taken back out of the broker's and listener's rates; last, one whose IP already holds
 * {@code max.connections.per.ip} (or its override) is closed at once. kaas has no inter-broker listener, so none is
 * exempt from the broker-wide limits. Limits follow the broker's configs as they change.
 */
public final class ConnectionQuotas implements ConnectionAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionQuotas.class);
    private static final String IP_CONNECTION_CREATION_RATE = IpAddresses.CONNECTION_CREATION_RATE;

    private final Map<String, String> listeners;
    private final Function<String, String> resolveHost;
    private final ToIntFunction<String> ipCreationThrottle;
    private final QuotaWindow window;
    private final Clock clock;
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    /** Guards the counts and the rate sensors. */
    private final Object lock = new Object();
    private final ConnectionCounts counts = new ConnectionCounts();
    private final QuotaSensor brokerRate;
    private final Map<String, QuotaSensor> listenerRates = new HashMap<>();
    private volatile ConnectionLimits limits;

    /**
     * @param listeners          the broker's listeners: each one's name in Apache's configs ({@code PLAINTEXT} for
     *                           {@code listener.name.plaintext.max.connections}) by its name on the wire
     * @param resolveHost        the canonical address of a {@code max.connections.per.ip.overrides} host, or null
     *                           when it has none; called when the configs change, never on the accept path
     * @param ipCreationThrottle records a connection from an IP against its {@code connection_creation_rate} and
     *                           answers how long to hold it before closing it, 0 to go on
     * @param window             how the creation rates are measured ({@code quota.window.num}, {@code .size.seconds})
     */
    public ConnectionQuotas(BrokerConfigs configs, Map<String, String> listeners, Function<String, String> resolveHost,
                            ToIntFunction<String> ipCreationThrottle, QuotaWindow window, Clock clock) {
        this.listeners = Map.copyOf(listeners);
        this.resolveHost = resolveHost;
        this.ipCreationThrottle = ipCreationThrottle;
        this.window = window;
        this.clock = clock;
        long now = clock.nowMs();
        this.brokerRate = new QuotaSensor(window, now);
        this.listeners.keySet().forEach(l -> listenerRates.put(l, new QuotaSensor(window, now)));
        this.limits = limitsOf(configs);
    }

    /** Takes the limits {@code configs} set; connections waiting for a slot are told to look again. */
    public void useBrokerConfigs(BrokerConfigs configs) {
        ConnectionLimits next = limitsOf(configs);
        if (!next.equals(limits)) {
            limits = next;
            LOG.info("connection limits are now {}", next);
            watchers.forEach(Runnable::run);
        }
    }

    /** The limits in force. */
    public ConnectionLimits limits() {
        return limits;
    }

    private ConnectionLimits limitsOf(BrokerConfigs configs) {
        return ConnectionLimits.of(name -> configs.get(name).map(BrokerConfigs.Entry::value).orElse(null), listeners)
                .withOverrideAddresses(host -> IpAddresses.isLiteral(host) ? IpAddresses.key(host)
                        : resolveHost.apply(host));
    }

    @Override
    public Attempt attempt(String listener, String ip) {
        return new Admission(listener, IpAddresses.key(ip));
    }

    @Override
    public void whenSlotsMayHaveFreed(Runnable watcher) {
        watchers.add(watcher);
    }

    /** Connections counted now from {@code ip} (its address literal). */
    public int connectionsFrom(String ip) {
        synchronized (lock) {
            return counts.fromIp(IpAddresses.key(ip));
        }
    }

    /** One connection's way through the limits; its stage survives a DELAY or a WAIT. */
    private final class Admission implements Attempt {
        private final String listener;
        private final String ip;
        private boolean rateRecorded;
        private boolean counted;

        Admission(String listener, String ip) {
            this.listener = listener;
            this.ip = ip;
        }

        @Override
        public Decision proceed() {
            ConnectionLimits current = limits;
            synchronized (lock) {
                long now = clock.nowMs();
                if (!rateRecorded) {
                    rateRecorded = true;
                    Decision delay = recordCreation(current, now);
                    if (delay != null) {
                        return delay;
                    }
                }
                if (!counts.slotAvailable(listener, current)) {
                    boolean listenerFull = current.maxConnections(listener) < current.maxConnections();
                    return new Decision(Verdict.WAIT, 0, ConnectionLimits.MAX_CONNECTIONS,
                            listenerFull ? current.maxConnections(listener) : current.maxConnections());
                }
                int ipThrottleMs = ipCreationThrottle.applyAsInt(ip);
                if (ipThrottleMs > 0) {
                    // a connection never served does not count towards the broker's and listener's rates
                    brokerRate.unrecord(1, now);
                    listenerRate().unrecord(1, now);
                    return new Decision(Verdict.THROTTLE, ipThrottleMs, IP_CONNECTION_CREATION_RATE, 0);
                }
                if (!counts.open(listener, ip, current)) {
                    return new Decision(Verdict.REFUSE, 0, ConnectionLimits.MAX_CONNECTIONS_PER_IP,
                            current.maxConnectionsPerIp(ip));
                }
                counted = true;
                return Decision.ACCEPT;
            }
        }

        /** Records the connection in the broker's and the listener's rates; a DELAY when either is exceeded. */
        private Decision recordCreation(ConnectionLimits current, long now) {
            int brokerMs = throttleMs(brokerRate, current.maxConnectionCreationRate(), now);
            int listenerMs = throttleMs(listenerRate(), current.creationRate(listener), now);
            if (brokerMs == 0 && listenerMs == 0) {
                return null;
            }
            boolean byListener = listenerMs > brokerMs;
            return new Decision(Verdict.DELAY, Math.max(brokerMs, listenerMs), ConnectionLimits.MAX_CONNECTION_CREATION_RATE,
                    byListener ? current.creationRate(listener) : current.maxConnectionCreationRate());
        }

        private int throttleMs(QuotaSensor sensor, int bound, long now) {
            return (int) Math.min(sensor.recordAndThrottleMs(1, bound, now), window.sampleMs());
        }

        private QuotaSensor listenerRate() {
            return listenerRates.computeIfAbsent(listener, l -> new QuotaSensor(window, clock.nowMs()));
        }

        @Override
        public void closed() {
            synchronized (lock) {
                if (!counted) {
                    return;
                }
                counted = false;
                counts.close(listener, ip);
            }
            watchers.forEach(Runnable::run);
        }
    }
}
