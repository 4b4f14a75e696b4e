package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.application.port.out.BrokerRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link BrokerRegistry} on the EndpointSlices of the brokers' headless Service: the slices Kubernetes keeps
 * for it already say which brokers should exist (a scale-down removes the endpoint, which is the deregistration)
 * and whether each is ready. Not-ready brokers stay listed, deregistration is scoped to the slice that listed the
 * broker, and this broker is pinned ({@link BrokersBySlice}).
 *
 * <p>{@link #brokers()} reads a published copy and never blocks; the slices are watched on the adapter's own thread
 * ({@link RelistingWatch}: relist on every restart, 1 s to 30 s apart), which also calls the change listeners. Until
 * {@link #start()} has listed the slices, and whenever the API server is unreachable, the last known brokers stay.
 */
public final class EndpointSliceBrokerRegistry implements BrokerRegistry, AutoCloseable {

    /** The label Kubernetes puts on every EndpointSlice of a Service, naming it. */
    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private static final Duration FIRST_RESTART = Duration.ofSeconds(1);
    private static final Duration LONGEST_RESTART = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(EndpointSliceBrokerRegistry.class);

    private final String namespace;
    private final String service;
    private final BrokersBySlice bySlice;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final RelistingWatch<EndpointSlice> watch;
    private volatile List<RegisteredBroker> brokers;

    /**
     * @param service the brokers' headless Service
     * @param self    this broker, listed from the start and never changed by slice data
     */
    public EndpointSliceBrokerRegistry(KubernetesClient client, String namespace, String service, RegisteredBroker self) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.service = Objects.requireNonNull(service, "service");
        this.bySlice = new BrokersBySlice(Objects.requireNonNull(self, "self"));
        this.brokers = bySlice.snapshot();
        this.watch = new RelistingWatch<>("EndpointSlices of " + namespace + "/" + service,
                RelistingWatch.withoutClientRetries(client).discovery().v1().endpointSlices().inNamespace(namespace)
                        .withLabel(SERVICE_NAME_LABEL, service),
                new SliceEvents(), new RestartBackoff(FIRST_RESTART, LONGEST_RESTART));
    }

    /** Starts watching the slices; returns at once. */
    public EndpointSliceBrokerRegistry start() {
        watch.start();
        return this;
    }

    @Override
    public List<RegisteredBroker> brokers() {
        return brokers;
    }

    @Override
    public void onChange(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void close() {
        watch.close();
    }

    private void publishIf(boolean changed, String cause) {
        if (!changed) {
            return;
        }
        brokers = bySlice.snapshot();
        LOG.info("brokers of {}/{} after {}: {}", namespace, service, cause, describe(brokers));
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.error("a broker registry listener failed after {}", cause, e);
            }
        }
    }

    private List<RegisteredBroker> brokersOf(EndpointSlice slice) {
        return SliceBrokers.of(slice, service, namespace);
    }

    private static String describe(List<RegisteredBroker> brokers) {
        return brokers.stream()
                .map(b -> b.id() + "@" + b.host() + ":" + b.kafkaPort() + (b.ready() ? "" : " (not ready)"))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static String name(EndpointSlice slice) {
        return slice.getMetadata().getName();
    }

    /** The watch's callbacks, on its thread: the only writer of {@link #bySlice} and {@link #brokers}. */
    private final class SliceEvents implements RelistingWatch.Listener<EndpointSlice> {
        @Override
        public void relisted(List<EndpointSlice> slices) {
            Map<String, List<RegisteredBroker>> listing = new HashMap<>();
            slices.forEach(slice -> listing.put(name(slice), brokersOf(slice)));
            publishIf(bySlice.replaceAll(listing), "listing " + listing.keySet());
        }

        @Override
        public void changed(EndpointSlice slice) {
            publishIf(bySlice.put(name(slice), brokersOf(slice)), "slice " + name(slice) + " changed");
        }

        @Override
        public void deleted(EndpointSlice slice) {
            publishIf(bySlice.remove(name(slice)), "slice " + name(slice) + " deleted");
        }
    }
}
