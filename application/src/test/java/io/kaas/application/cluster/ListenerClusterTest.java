package io.kaas.application.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.ClusterUseCase.Broker;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ListenerClusterTest {
    private static final Broker SELF = new Broker(0, "kaas-0.kaas-brokers.ns.svc", 9092, "zone-a");
    private static final Broker PEER = new Broker(1, "kaas-1.kaas-brokers.ns.svc", 9092, null);

    private final ClusterUseCase registered = twoBrokers(SELF, PEER);

    /** Broker 1 (the peer) is the controller, the group and transaction-slot coordinator; self coordinates "t". */
    private static ClusterUseCase twoBrokers(Broker self, Broker peer) {
        return new ClusterUseCase() {
            @Override
            public String clusterId() {
                return "c";
            }

            @Override
            public Broker self() {
                return self;
            }

            @Override
            public List<Broker> brokers() {
                return List.of(self, peer);
            }

            @Override
            public int controllerId() {
                return 1;
            }

            @Override
            public int leaderOf(String topic, int partition) {
                return partition;
            }

            @Override
            public OptionalInt leaderEpochOf(String topic, int partition) {
                return OptionalInt.of(7);
            }

            @Override
            public Optional<Broker> groupCoordinator(String groupId) {
                return Optional.of(peer);
            }

            @Override
            public Optional<Broker> transactionCoordinator(String transactionalId) {
                return transactionalId.isEmpty() ? Optional.empty() : Optional.of(self);
            }

            @Override
            public Optional<Broker> transactionSlotCoordinator(int slot) {
                return Optional.of(peer);
            }
        };
    }

    @Test
    void everyBrokerIsAdvertisedOnTheListenersPortWithItsOwnHostAndRack() {
        ListenerCluster authed = new ListenerCluster(registered, () -> 9095);

        assertThat(authed.brokers()).containsExactly(new Broker(0, SELF.host(), 9095, "zone-a"),
                new Broker(1, PEER.host(), 9095, null));
        assertThat(authed.self()).isEqualTo(new Broker(0, SELF.host(), 9095, "zone-a"));
        assertThat(authed.groupCoordinator("g")).contains(new Broker(1, PEER.host(), 9095, null));
        assertThat(authed.transactionCoordinator("t")).contains(new Broker(0, SELF.host(), 9095, "zone-a"));
        assertThat(authed.transactionCoordinator("")).isEmpty();
        assertThat(authed.transactionSlotCoordinator(3)).contains(new Broker(1, PEER.host(), 9095, null));
    }

    @Test
    void brokersWithTheirOwnPortsAreAdvertisedAsFarFromTheirRegisteredPortAsThisListenerIsFromOurs() {
        Broker self = new Broker(0, "127.0.0.1", 19_092, null); // dev/cluster.sh: broker i on BASE+i and BASE+400+i
        Broker peer = new Broker(1, "127.0.0.1", 19_093, null);
        ListenerCluster sasl = new ListenerCluster(twoBrokers(self, peer), () -> 19_492);

        assertThat(sasl.brokers()).extracting(Broker::port).containsExactly(19_492, 19_493);
        assertThat(sasl.groupCoordinator("g")).map(Broker::port).contains(19_493);
        assertThat(sasl.transactionCoordinator("t")).map(Broker::port).contains(19_492);
    }

    @Test
    void leadershipAndIdentityAreTheClustersAndThePortIsReadOnEveryCall() {
        AtomicInteger bound = new AtomicInteger(0);
        ListenerCluster view = new ListenerCluster(registered, bound::get);
        bound.set(41_234);

        assertThat(view.self().port()).isEqualTo(41_234);
        assertThat(view.clusterId()).isEqualTo("c");
        assertThat(view.controllerId()).isEqualTo(1);
        assertThat(view.leaderOf("t", 5)).isEqualTo(5);
        assertThat(view.leaderEpochOf("t", 5)).hasValue(7);
    }
}
