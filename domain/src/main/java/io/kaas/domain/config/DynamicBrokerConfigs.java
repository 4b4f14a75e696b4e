package io.kaas.domain.config;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.quota.ConnectionLimits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Apache Kafka 3.7's rules for dynamic broker configs (its {@code DynamicBrokerConfig.validateConfigs}
 * and the reconfigurables' checks), with its messages. Every refusal is INVALID_REQUEST, as Apache
 * answers on a BROKER resource, type errors included.
 */
public final class DynamicBrokerConfigs {
    /** {@code listener.name.<listener>.<config>}: a config for one listener. */
    private static final Pattern LISTENER_CONFIG = Pattern.compile("listener\\.name\\.[^.]+\\.(.*)");
    /** Listener configs Apache lets the cluster-wide default set although they are per listener. */
    private static final Set<String> CLUSTER_LEVEL_LISTENER_CONFIGS =
            Set.of("max.connection.creation.rate", "max.connections", "num.network.threads");
    /** Thread pools Apache resizes at most by half or double at a time. */
    private static final Set<String> THREAD_POOLS = Set.of("num.io.threads", "num.network.threads",
            "num.replica.fetchers", "num.recovery.threads.per.data.dir", "background.threads");
    private static final String LOG_CLEANER_THREADS = "log.cleaner.threads";
    private static final String CONNECTION_OVERRIDES = ConnectionLimits.MAX_CONNECTIONS_PER_IP_OVERRIDES;
    /** Apache's {@code Utils.validHostPattern}: the characters a host of the overrides may have. */
    private static final Pattern HOST_CHARACTERS = Pattern.compile("[0-9a-zA-Z\\-%._:]*");
    /** The connection limits every listener holds, its own or the broker's. */
    private static final Set<String> LISTENER_CONNECTION_LIMITS = Set.of(ConnectionLimits.MAX_CONNECTIONS,
            ConnectionLimits.MAX_CONNECTION_CREATION_RATE);

    private DynamicBrokerConfigs() {
    }

    /**
     * One resource's dynamic configs after applying {@code changes} in order: SET replaces, DELETE
     * removes, APPEND and SUBTRACT edit a LIST config item by item from its current effective value.
     *
     * @param effective the value a config has now on this resource, for APPEND and SUBTRACT
     * @throws KafkaException INVALID_CONFIG when APPEND or SUBTRACT names a config that is not a list
     */
    public static Map<String, String> apply(Map<String, String> current, List<TopicConfigs.Change> changes,
                                            Function<String, String> effective) {
        Map<String, String> next = new LinkedHashMap<>(current);
        for (TopicConfigs.Change change : changes) {
            switch (change.op()) {
                case SET -> next.put(change.key(), change.value());
                case DELETE -> next.remove(change.key());
                case APPEND, SUBTRACT -> next.put(change.key(), editList(next.containsKey(change.key())
                        ? next.get(change.key()) : effective.apply(change.key()), change));
            }
        }
        return next;
    }

    private static String editList(String current, TopicConfigs.Change change) {
        boolean isList = DynamicBrokerConfigKeys.get(baseName(change.key())).filter(k -> k.type() == ConfigType.LIST)
                .isPresent();
        if (!isList) {
            String op = change.op().name().toLowerCase(Locale.ROOT);
            throw new KafkaException(KafkaError.INVALID_CONFIG, "Config value " + op + " is not allowed for config key: "
                    + change.key());
        }
        return ConfigValues.appendOrSubtract(current, change.value(), change.op() == AlterOp.APPEND);
    }

    /**
     * Checks configs about to be set on one resource, in Apache's order: none static, no keystore or
     * truststore without a listener prefix, every known value parseable and valid, none that only a
     * broker may set on the cluster-wide default, thread pools and the log cleaner resized at most by
     * half or double. A name Apache does not know passes unchecked, as on Apache.
     *
     * @param perBroker true on a broker id, false on the cluster-wide default
     * @param current   the effective value of a config now, which a resize is measured against
     * @throws KafkaException INVALID_REQUEST with Apache's message
     */
    public static void validate(Map<String, String> configs, boolean perBroker, Function<String, String> current) {
        Set<String> names = new TreeSet<>(configs.keySet());
        refuseAny(names.stream().filter(StaticBrokerConfigNames::contains).toList(), "Set",
                "Cannot update these configs dynamically");
        refuseAny(names.stream().filter(n -> scope(n).filter(s -> s == DynamicBrokerConfigKeys.Scope.PER_LISTENER)
                        .isPresent()).toList(), "HashSet",
                "These security configs can be dynamically updated only per-listener using the listener prefix");
        for (String name : names) {
            Optional<DynamicBrokerConfigKeys.Key> key = DynamicBrokerConfigKeys.get(baseName(name));
            if (key.isPresent()) {
                parse(key.get(), configs.get(name));
            }
        }
        if (!perBroker) {
            refuseAny(names.stream().filter(DynamicBrokerConfigs::perBrokerOnly).toList(), "Set",
                    "Cannot update these configs at default cluster level, broker id must be specified");
        }
        for (String name : names) {
            checkResize(name, configs.get(name), current);
        }
        for (String name : names) {
            checkListenerConnectionLimit(name, configs.get(name), configs, current);
        }
    }

    /**
     * Apache's checks across a broker's effective configs once a change is applied (its
     * {@code KafkaConfig} requirements): segments rolled after at least a millisecond, a jitter not
     * negative, a retention time unlimited or at least a millisecond (a negative one means
     * unlimited), and at least 1 MiB of dedupe buffer per cleaner thread.
     *
     * @param effective the value of each config with the change applied
     * @throws KafkaException INVALID_REQUEST with Apache's message
     */
    public static void checkRequirements(Function<String, String> effective) {
        require(longOf(effective, "log.roll.ms") >= 1, "log.roll.ms must be greater than or equal to 1");
        require(longOf(effective, "log.roll.jitter.ms") >= 0, "log.roll.jitter.ms must be greater than or equal to 0");
        require(longOf(effective, "log.retention.ms") != 0,
                "log.retention.ms must be unlimited (-1) or, greater than or equal to 1");
        require(longOf(effective, "log.cleaner.dedupe.buffer.size") / longOf(effective, LOG_CLEANER_THREADS)
                >= 1024 * 1024, "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.");
        require(longOf(effective, ConnectionLimits.MAX_CONNECTIONS_PER_IP) != 0
                        || !effective.apply(CONNECTION_OVERRIDES).isBlank(), ConnectionLimits.MAX_CONNECTIONS_PER_IP
                        + " can be set to zero only if " + CONNECTION_OVERRIDES + " property is set.");
    }

    private static long longOf(Function<String, String> effective, String name) {
        return Long.parseLong(effective.apply(name).trim());
    }

    private static void require(boolean holds, String message) {
        if (!holds) {
            throw invalidRequest("requirement failed: " + message);
        }
    }

    private static void parse(DynamicBrokerConfigKeys.Key key, String raw) {
        try {
            key.parse(raw);
            if (key.name().equals(CONNECTION_OVERRIDES)) {
                checkConnectionOverrides(raw);
            }
        } catch (KafkaException e) {
            throw invalidRequest(e.getMessage());
        }
    }

    /**
     * {@code host:count,...}, read as Apache reads it, with the errors its parsing raises, then its check that every
     * host is made of host-name characters.
     */
    private static void checkConnectionOverrides(String raw) {
        Map<String, Integer> overrides;
        try {
            overrides = ConnectionLimits.parseOverrides(raw);
        } catch (RuntimeException e) {
            throw invalidRequest("Error parsing configuration property '" + CONNECTION_OVERRIDES + "': "
                    + e.getMessage());
        }
        List<String> invalid = overrides.keySet().stream().filter(host -> !HOST_CHARACTERS.matcher(host).matches())
                .toList();
        if (!invalid.isEmpty()) {
            throw invalidRequest(CONNECTION_OVERRIDES + " contains invalid addresses : " + String.join(",", invalid));
        }
    }

    /**
     * A listener's {@code max.connections} and {@code max.connection.creation.rate} must be positive (Apache's
     * {@code ListenerConnectionQuota} check): a 0 is refused when it reaches a listener of this broker, its own
     * prefixed value or the broker-wide one on a listener without its own.
     */
    private static void checkListenerConnectionLimit(String name, String raw, Map<String, String> configs,
                                                     Function<String, String> current) {
        String base = baseName(name);
        if (!LISTENER_CONNECTION_LIMITS.contains(base) || Integer.parseInt(raw.trim()) > 0) {
            return;
        }
        String listeners = current.apply("listeners");
        boolean reachesAListener = listeners != null && ConfigValues.items(listeners).stream()
                .map(listener -> ConnectionLimits.listenerConfig(listener.substring(0, listener.indexOf(':')), base))
                .anyMatch(own -> name.equals(base) ? !configs.containsKey(own) && current.apply(own) == null
                        : name.equals(own));
        if (reachesAListener) {
            throw invalidRequest("Invalid value org.apache.kafka.common.config.ConfigException: Invalid " + base + " "
                    + raw.trim() + " for configuration Invalid dynamic configuration");
        }
    }

    private static void checkResize(String name, String raw, Function<String, String> current) {
        if (!THREAD_POOLS.contains(name) && !name.equals(LOG_CLEANER_THREADS)) {
            return;
        }
        int next = Integer.parseInt(raw.trim());
        int now = Integer.parseInt(current.apply(name));
        String failure = name.equals(LOG_CLEANER_THREADS) ? cleanerResize(next, now) : poolResize(name, next, now);
        if (failure != null) {
            throw invalidRequest("Invalid value org.apache.kafka.common.config.ConfigException: " + failure
                    + " for configuration Invalid dynamic configuration");
        }
    }

    private static String poolResize(String name, int next, int now) {
        if (next == now) {
            return null;
        }
        String failed = "Dynamic thread count update validation failed for " + name + "=" + next;
        if (next <= 0) {
            return failed + ", value should be at least 1";
        }
        if (next < now / 2) {
            return failed + ", value should be at least half the current value " + now;
        }
        return next > now * 2 ? failed + ", value should not be greater than double the current value " + now : null;
    }

    private static String cleanerResize(int next, int now) {
        if (next < 1) {
            return "Log cleaner threads should be at least 1";
        }
        if (next < now / 2) {
            return "Log cleaner threads cannot be reduced to less than half the current value " + now;
        }
        return next > now * 2 ? "Log cleaner threads cannot be increased to more than double the current value " + now
                : null;
    }

    private static boolean perBrokerOnly(String name) {
        Matcher listener = LISTENER_CONFIG.matcher(name);
        if (listener.matches()) {
            return !CLUSTER_LEVEL_LISTENER_CONFIGS.contains(listener.group(1));
        }
        return scope(name).filter(s -> s != DynamicBrokerConfigKeys.Scope.CLUSTER).isPresent();
    }

    private static Optional<DynamicBrokerConfigKeys.Scope> scope(String name) {
        return DynamicBrokerConfigKeys.get(name).map(DynamicBrokerConfigKeys.Key::scope);
    }

    /** A listener config's name without its {@code listener.name.<listener>.} prefix. */
    private static String baseName(String name) {
        Matcher listener = LISTENER_CONFIG.matcher(name);
        return listener.matches() ? listener.group(1) : name;
    }

    /** Apache prints the offending names as a Scala set. */
    private static void refuseAny(List<String> names, String setKind, String message) {
        if (!names.isEmpty()) {
            throw invalidRequest(message + ": " + setKind + "(" + String.join(", ", names) + ")");
        }
    }

    private static KafkaException invalidRequest(String message) {
        return new KafkaException(KafkaError.INVALID_REQUEST, message);
    }
}
