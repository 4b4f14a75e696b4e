package io.kaas.adapter.k8s;

import static io.kaas.adapter.k8s.TestSlices.HEARTBEAT;
import static io.kaas.adapter.k8s.TestSlices.KAFKA;
import static io.kaas.adapter.k8s.TestSlices.NAMESPACE;
import static io.kaas.adapter.k8s.TestSlices.SERVICE;
import static io.kaas.adapter.k8s.TestSlices.bare;
import static io.kaas.adapter.k8s.TestSlices.host;
import static io.kaas.adapter.k8s.TestSlices.pod;
import static io.kaas.adapter.k8s.TestSlices.podWithoutHostname;
import static io.kaas.adapter.k8s.TestSlices.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SliceBrokersTest {

    @Test
    void eachEndpointIsTheBrokerOfItsOrdinalAtItsStableName() {
        List<RegisteredBroker> brokers = brokersOf(slice("kaas-a", pod(0, true), pod(2, true)));

        assertThat(brokers).containsExactly(
                new RegisteredBroker(0, host(0), KAFKA, HEARTBEAT, true),
                new RegisteredBroker(2, host(2), KAFKA, HEARTBEAT, true));
    }

    @Test
    void notReadyEndpointsAreKeptWithTheirReadiness() {
        assertThat(brokersOf(slice("kaas-a", pod(1, false)))).singleElement()
                .extracting(RegisteredBroker::ready).isEqualTo(false);
    }

    @Test
    void unknownReadinessCountsAsReady() {
        EndpointSlice slice = slice("kaas-a",
                new EndpointBuilder(pod(1, false)).withNewConditions().endConditions().build(),
                new EndpointBuilder(pod(2, false)).withConditions(null).build());

        assertThat(brokersOf(slice)).extracting(RegisteredBroker::ready).containsExactly(true, true);
    }

    @Test
    void withoutHostnameTheOrdinalComesFromThePodAndTheHostIsTheAddress() {
        assertThat(brokersOf(slice("kaas-a", podWithoutHostname(3, true))))
                .containsExactly(new RegisteredBroker(3, "10.0.0.13", KAFKA, HEARTBEAT, true));
    }

    @Test
    void aHostnameWithoutOrdinalFallsBackToThePodName() {
        EndpointSlice slice = slice("kaas-a", new EndpointBuilder(pod(4, true)).withHostname("broker").build());

        assertThat(brokersOf(slice)).singleElement().extracting(RegisteredBroker::id).isEqualTo(4);
    }

    @Test
    void anEndpointThatIsNoStatefulSetPodIsNoBroker() {
        EndpointSlice slice = slice("kaas-a", pod(0, true),
                new EndpointBuilder().withAddresses("10.0.0.99").withNewTargetRef().withName("debug").endTargetRef().build(),
                new EndpointBuilder().withAddresses("10.0.0.98").build());

        assertThat(brokersOf(slice)).extracting(RegisteredBroker::id).containsExactly(0);
    }

    @Test
    void portsAreFoundByNameAndAMissingOneIsZero() {
        EndpointSlice slice = bare("kaas-a", pod(0, true));
        slice.setPorts(List.of(new EndpointPortBuilder()
                .withName(SliceBrokers.HEARTBEAT_PORT).withPort(7000).build()));

        assertThat(brokersOf(slice)).containsExactly(new RegisteredBroker(0, host(0), 0, 7000, true));
    }

    @Test
    void aSliceWithoutEndpointsListsNoBroker() {
        assertThat(brokersOf(bare("kaas-a"))).isEmpty();
    }

    @Test
    void ordinalsAreTheDigitsAfterTheLastDash() {
        assertThat(SliceBrokers.ordinal("kaas-2")).hasValue(2);
        assertThat(SliceBrokers.ordinal("my-kaas-cluster-12")).hasValue(12);
        assertThat(SliceBrokers.ordinal("kaas")).isEqualTo(OptionalInt.empty());
        assertThat(SliceBrokers.ordinal("kaas-")).isEmpty();
        assertThat(SliceBrokers.ordinal("kaas-x1")).isEmpty();
        assertThat(SliceBrokers.ordinal("kaas-+1")).isEmpty();
        assertThat(SliceBrokers.ordinal("kaas-99999999999")).as("no overflow").isEmpty();
        assertThat(SliceBrokers.ordinal(null)).isEmpty();
    }

    private static List<RegisteredBroker> brokersOf(EndpointSlice slice) {
        return SliceBrokers.of(slice, SERVICE, NAMESPACE);
    }
}
