package io.kaas.application.topic;

import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.DynamicBrokerConfigStore;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.DynamicBrokerConfigs;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's configs as they stand: its startup settings under the dynamic broker configs set
 * through IncrementalAlterConfigs and AlterConfigs, on this broker or as the cluster-wide default.
 * Changes are checked by Apache Kafka 3.7's rules ({@link DynamicBrokerConfigs}), stored, and
 * passed to the listeners (the topics, whose defaults they may change) before they are answered.
 *
 * <p>In a cluster there is no store: the brokers' settings come from the KafkaCluster resource,
 * which the Kafka API does not write, so every change is refused.
 */
public final class BrokerConfigService {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfigService.class);
    private static final String CLUSTER_DEFAULT = "";

    private final Optional<DynamicBrokerConfigStore> store;
    private final List<Consumer<BrokerConfigs>> listeners = new CopyOnWriteArrayList<>();
    private volatile BrokerConfigs current;

    private BrokerConfigService(BrokerConfigs startup, Optional<DynamicBrokerConfigStore> store, int brokerId,
                                Map<String, Map<String, String>> stored) {
        this.store = store;
        this.current = startup.withDynamic(stored.getOrDefault(Integer.toString(brokerId), Map.of()),
                stored.getOrDefault(CLUSTER_DEFAULT, Map.of()));
    }

    /** A broker whose dynamic configs live in {@code store}, as stored there now. */
    public static BrokerConfigService stored(BrokerConfigs startup, DynamicBrokerConfigStore store, int brokerId) {
        return new BrokerConfigService(startup, Optional.of(store), brokerId, store.load());
    }

    /** A broker with no dynamic configs, which refuses to set any (cluster mode). */
    public static BrokerConfigService fixed(BrokerConfigs startup, int brokerId) {
        return new BrokerConfigService(startup, Optional.empty(), brokerId, Map.of());
    }

    /** The effective configs now. */
    public BrokerConfigs current() {
        return current;
    }

    /** Calls {@code listener} with the new configs after each change, on the changing thread. */
    public void addListener(Consumer<BrokerConfigs> listener) {
        listeners.add(listener);
    }

    /**
     * Changes the dynamic configs of this broker ({@code resource} its id) or the cluster-wide
     * defaults ({@code resource} ""): {@code change} maps the stored ones to the next. With
     * validateOnly, only checks.
     */
    public synchronized Outcome alter(String resource, UnaryOperator<Map<String, String>> change,
                                      boolean validateOnly) {
        if (store.isEmpty()) {
            return new Outcome(KafkaError.INVALID_REQUEST, "Dynamic broker configs cannot be changed through the Kafka"
                    + " API in a kaas cluster: the KafkaCluster resource holds the brokers' settings");
        }
        boolean perBroker = !resource.equals(CLUSTER_DEFAULT);
        Map<String, String> stored = perBroker ? current.dynamicOfBroker() : current.dynamicDefaults();
        Map<String, String> next;
        BrokerConfigs candidate;
        try {
            next = change.apply(stored);
            Map<String, String> set = new LinkedHashMap<>(next);
            set.entrySet().removeIf(e -> e.getValue().equals(stored.get(e.getKey())));
            BrokerConfigs now = current;
            DynamicBrokerConfigs.validate(set, perBroker, name -> valueOf(now, name));
            candidate = perBroker ? now.withDynamic(next, now.dynamicDefaults())
                    : now.withDynamic(now.dynamicOfBroker(), next);
            DynamicBrokerConfigs.checkRequirements(name -> valueOf(candidate, name));
            checkTopicDefaults(candidate);
        } catch (KafkaException e) {
            return new Outcome(e.error(), e.getMessage());
        }
        if (validateOnly || next.equals(stored)) {
            return Outcome.OK;
        }
        try {
            store.get().save(resource, next);
        } catch (RuntimeException e) {
            LOG.error("storing the dynamic configs of broker resource '{}' failed", resource, e);
            return new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, "Storing the broker configs failed: " + e.getMessage());
        }
        current = candidate;
        LOG.info("dynamic broker configs of '{}' are now {}", resource, next);
        listeners.forEach(listener -> listener.accept(candidate));
        return Outcome.OK;
    }

    private static String valueOf(BrokerConfigs configs, String name) {
        return configs.get(name).map(BrokerConfigs.Entry::value).orElse(null);
    }

    /**
     * Every topic without its own value takes the broker's: a default a topic could not hold (a
     * negative {@code log.flush.interval.ms}, a {@code log.retention.ms} below -1, which Apache reads as
     * unlimited) is refused with the topic config's message rather than leave topics unresolvable.
     */
    private static void checkTopicDefaults(BrokerConfigs candidate) {
        try {
            TopicConfigs.validate(Map.of(), candidate.topicDefaults());
        } catch (KafkaException e) {
            throw new KafkaException(KafkaError.INVALID_REQUEST, e.getMessage());
        }
    }
}
