package io.kaas.adapter.k8s;

import static io.kaas.adapter.k8s.TestSlices.HEARTBEAT;
import static io.kaas.adapter.k8s.TestSlices.KAFKA;
import static io.kaas.adapter.k8s.TestSlices.NAMESPACE;
import static io.kaas.adapter.k8s.TestSlices.SERVICE;
import static io.kaas.adapter.k8s.TestSlices.host;
import static io.kaas.adapter.k8s.TestSlices.pod;
import static io.kaas.adapter.k8s.TestSlices.podWithoutHostname;
import static io.kaas.adapter.k8s.TestSlices.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry on the development API server: the "Broker fencing" rules over a live watch, and its restarts. */
class EndpointSliceBrokerRegistryIT {
    private static final RegisteredBroker SELF = ready(0);
    /** Long enough for a restart's relist (1 s, then 2 s if the server was not back yet) on a busy machine. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient kubernetes = apiServer.client();
    private final KubernetesClient brokerClient = apiServer.client();
    private final EndpointSliceBrokerRegistry registry =
            new EndpointSliceBrokerRegistry(brokerClient, NAMESPACE, SERVICE, SELF);

    @AfterEach
    void stop() {
        registry.close();
        brokerClient.close();
        kubernetes.close();
        apiServer.close();
    }

    @Test
    void brokersAppearFromASliceWithTheirReadinessAndNotReadyOnesAreKept() {
        apply(slice("kaas-a", pod(0, true), pod(1, true), pod(2, false)));

        registry.start();

        awaitBrokers(SELF, ready(1), notReady(2));
    }

    @Test
    void onlyTheSlicesOfTheBrokersServiceCount() {
        registry.start();
        EndpointSlice otherService = new EndpointSliceBuilder(slice("other-a", pod(5, true))).editMetadata()
                .addToLabels(EndpointSliceBrokerRegistry.SERVICE_NAME_LABEL, "other").endMetadata().build();
        apply(otherService);
        apply(slice("kaas-a", pod(1, true)));

        awaitBrokers(SELF, ready(1));
    }

    @Test
    void anOrdinalDroppedFromItsSliceIsDeregistered() {
        registry.start();
        apply(slice("kaas-a", pod(1, true), pod(2, false)));
        awaitBrokers(SELF, ready(1), notReady(2));

        apply(slice("kaas-a", pod(1, true)));

        awaitBrokers(SELF, ready(1));
    }

    @Test
    void twoSlicesOfOneServiceDoNotEvictEachOther() {
        registry.start();
        apply(slice("kaas-a", pod(1, true)));
        apply(slice("kaas-b", pod(2, true)));
        awaitBrokers(SELF, ready(1), ready(2));

        apply(slice("kaas-a", pod(1, false)));
        awaitBrokers(SELF, notReady(1), ready(2));

        apply(slice("kaas-b", pod(2, true), pod(3, true)));
        awaitBrokers(SELF, notReady(1), ready(2), ready(3));
    }

    @Test
    void deletingASliceRemovesOnlyItsBrokers() {
        registry.start();
        apply(slice("kaas-a", pod(1, true)));
        apply(slice("kaas-b", pod(2, true), pod(3, false)));
        awaitBrokers(SELF, ready(1), ready(2), notReady(3));

        kubernetes.resource(slice("kaas-b")).delete();

        awaitBrokers(SELF, ready(1));
    }

    @Test
    void selfIsPinnedWhateverItsSliceSays() {
        registry.start();
        apply(slice("kaas-a", podWithoutHostname(0, false), pod(1, true)));
        awaitBrokers(SELF, ready(1));

        apply(slice("kaas-a", pod(1, true), pod(2, true)));

        awaitBrokers(SELF, ready(1), ready(2));
    }

    @Test
    void listenersAreCalledOnTheAdaptersThreadAfterEachChangeOnly() {
        AtomicInteger calls = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        registry.onChange(() -> {
            threads.add(Thread.currentThread().getName());
            calls.incrementAndGet();
        });
        registry.start();
        apply(slice("kaas-a", pod(1, true)));
        await().atMost(PATIENCE).until(() -> calls.get() == 1);

        apply(new EndpointSliceBuilder(slice("kaas-a", pod(1, true))).editMetadata()
                .addToAnnotations("unrelated", "change").endMetadata().build());
        apply(slice("kaas-b", pod(1, true)));
        apply(slice("kaas-b", pod(1, true), pod(2, true)));

        awaitBrokers(SELF, ready(1), ready(2));
        assertThat(calls).as("the annotation and the second listing of broker 1 changed nothing").hasValue(2);
        assertThat(threads).singleElement().asString().startsWith("kaas-watch ");
    }

    /**
     * How the mock is made to drop the watch: the API server is restarted on the same port (every WebSocket breaks),
     * and comes back without what was deleted meanwhile (slice kaas-b, broker 2). The mock's watch never replays
     * deletions: a watch that only reconnected would get slice kaas-a again as ADDED and keep broker 3 for good. The
     * registry relists, and the listing retracts it.
     */
    @Test
    void theWatchSurvivesAnApiServerRestartAndItsRelistRetractsWhatVanished() {
        registry.start();
        apply(slice("kaas-a", pod(1, true), pod(2, true)));
        apply(slice("kaas-b", pod(3, true)));
        awaitBrokers(SELF, ready(1), ready(2), ready(3));

        apiServer.restart();
        apply(slice("kaas-a", pod(1, true)));

        awaitBrokers(SELF, ready(1));
        apply(slice("kaas-c", pod(4, false)));
        awaitBrokers(SELF, ready(1), notReady(4));
    }

    @Test
    void closingStopsTheWatch() {
        registry.start();
        apply(slice("kaas-a", pod(1, true)));
        awaitBrokers(SELF, ready(1));

        registry.close();
        apply(slice("kaas-a", pod(1, true), pod(2, true)));

        await().during(Duration.ofMillis(500)).atMost(PATIENCE)
                .untilAsserted(() -> assertThat(registry.brokers()).containsExactly(SELF, ready(1)));
    }

    private void apply(EndpointSlice slice) {
        kubernetes.resource(slice).createOr(NonDeletingOperation::update);
    }

    private void awaitBrokers(RegisteredBroker... expected) {
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(registry.brokers()).containsExactly(expected));
        assertThat(registry.brokers()).isEqualTo(List.of(expected));
    }

    private static RegisteredBroker ready(int id) {
        return new RegisteredBroker(id, host(id), KAFKA, HEARTBEAT, true);
    }

    private static RegisteredBroker notReady(int id) {
        return new RegisteredBroker(id, host(id), KAFKA, HEARTBEAT, false);
    }
}
