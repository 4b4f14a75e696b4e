package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The book's "Broker fencing" rules on the per-slice state, without a server. */
class BrokersBySliceTest {
    private static final RegisteredBroker SELF = broker(0, true);

    private final BrokersBySlice brokers = new BrokersBySlice(SELF);

    @Test
    void selfIsListedBeforeAnySliceIsSeen() {
        assertThat(brokers.snapshot()).containsExactly(SELF);
    }

    @Test
    void brokersOfASliceAreListedByIdReadyOrNot() {
        assertThat(brokers.put("a", List.of(broker(2, true), broker(1, false)))).isTrue();

        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, false), broker(2, true));
    }

    @Test
    void anOrdinalAbsentFromItsSliceIsDeregistered() {
        brokers.put("a", List.of(broker(1, true), broker(2, false)));

        assertThat(brokers.put("a", List.of(broker(1, true)))).isTrue();

        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, true));
    }

    @Test
    void oneSlicesUpdateLeavesTheOtherSlicesBrokers() {
        brokers.put("a", List.of(broker(1, true)));
        brokers.put("b", List.of(broker(2, true)));

        brokers.put("a", List.of(broker(1, false)));
        brokers.put("b", List.of(broker(2, true), broker(3, true)));

        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, false), broker(2, true), broker(3, true));
    }

    @Test
    void aDeletedSliceTakesOnlyItsOwnBrokers() {
        brokers.put("a", List.of(broker(1, true)));
        brokers.put("b", List.of(broker(2, true)));

        assertThat(brokers.remove("b")).isTrue();

        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, true));
    }

    @Test
    void selfIsNeitherChangedNorRemovedBySliceData() {
        brokers.put("a", List.of(new RegisteredBroker(0, "elsewhere", 1, 2, false), broker(1, true)));
        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, true));

        brokers.put("a", List.of(broker(1, true)));
        brokers.remove("a");
        brokers.replaceAll(Map.of());

        assertThat(brokers.snapshot()).containsExactly(SELF);
    }

    @Test
    void aFullListingRetractsEverySliceItDoesNotName() {
        brokers.put("a", List.of(broker(1, true), broker(2, true)));
        brokers.put("b", List.of(broker(3, true)));

        assertThat(brokers.replaceAll(Map.of("a", List.of(broker(1, true))))).isTrue();

        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, true));
    }

    @Test
    void anOrdinalInTwoSlicesIsReadyIfEitherSaysSo() {
        brokers.put("ipv4", List.of(broker(1, false)));
        brokers.put("ipv6", List.of(broker(1, true)));
        assertThat(brokers.snapshot()).containsExactly(SELF, broker(1, true));

        brokers.remove("ipv6");
        assertThat(brokers.snapshot()).as("still listed by the other slice").containsExactly(SELF, broker(1, false));
    }

    @Test
    void anOrdinalInTwoSlicesAlikeComesFromTheSliceNamedFirst() {
        brokers.put("b", List.of(new RegisteredBroker(1, "from-b", 1, 1, true)));
        brokers.put("a", List.of(new RegisteredBroker(1, "from-a", 1, 1, true)));

        assertThat(brokers.snapshot()).extracting(RegisteredBroker::host).containsExactly(SELF.host(), "from-a");
    }

    @Test
    void reportsWhetherTheSnapshotChanged() {
        assertThat(brokers.put("a", List.of(broker(1, true)))).isTrue();
        assertThat(brokers.put("a", List.of(broker(1, true)))).isFalse();
        assertThat(brokers.put("b", List.of(broker(1, true)))).as("same broker, another slice").isFalse();
        assertThat(brokers.remove("b")).isFalse();
        assertThat(brokers.put("a", List.of(broker(0, false), broker(1, true)))).as("self is pinned").isFalse();
        assertThat(brokers.replaceAll(Map.of("a", List.of(broker(1, true))))).isFalse();
        assertThat(brokers.remove("a")).isTrue();
    }

    @Test
    void theSnapshotIsImmutable() {
        brokers.put("a", List.of(broker(1, true)));

        assertThatThrownBy(() -> brokers.snapshot().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    private static RegisteredBroker broker(int id, boolean ready) {
        return new RegisteredBroker(id, "kaas-" + id + ".kaas.test.svc", 9092, 9093, ready);
    }
}
