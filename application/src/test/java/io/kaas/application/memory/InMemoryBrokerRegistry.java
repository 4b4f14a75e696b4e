package io.kaas.application.memory;

import io.kaas.application.port.out.BrokerRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The endpoints Kubernetes lists, set by the test. */
public final class InMemoryBrokerRegistry implements BrokerRegistry {
    private final Map<Integer, RegisteredBroker> brokers = new TreeMap<>();
    private final List<Runnable> listeners = new ArrayList<>();

    /** Lists brokers {@code ids} as ready, on 127.0.0.1 with ports derived from their ids. */
    public static InMemoryBrokerRegistry of(int... ids) {
        InMemoryBrokerRegistry registry = new InMemoryBrokerRegistry();
        for (int id : ids) {
            registry.put(new RegisteredBroker(id, "127.0.0.1", 9092 + id, 9094 + id, true));
        }
        return registry;
    }

    public void put(RegisteredBroker broker) {
        synchronized (this) {
            brokers.put(broker.id(), broker);
        }
        listeners.forEach(Runnable::run);
    }

    public void remove(int id) {
        synchronized (this) {
            brokers.remove(id);
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public synchronized List<RegisteredBroker> brokers() {
        return brokers.values().stream().sorted(Comparator.comparingInt(RegisteredBroker::id)).toList();
    }

    @Override
    public synchronized void onChange(Runnable listener) {
        listeners.add(listener);
    }
}
