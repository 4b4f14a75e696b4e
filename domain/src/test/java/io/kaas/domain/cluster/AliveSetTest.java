package io.kaas.domain.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AliveSetTest {
    private static final long NOW = 100_000;
    private static final long TIMEOUT = 3_000;

    @Test
    void aConnectedHealthyBrokerIsAliveAndEligible() {
        AliveSet.Decision d = AliveSet.decide(List.of(0, 1), Map.of(1, beat(1, true, false, NOW - 500)), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.rows()).containsExactly(new BrokerRow(0, BrokerHealth.ALIVE, NOW), new BrokerRow(1, BrokerHealth.ALIVE, NOW));
        assertThat(d.eligible()).containsExactly(0, 1);
    }

    @Test
    void aSilentBrokerIsDeadAndKeepsWhenItWasLastSeen() {
        List<BrokerRow> previous = List.of(new BrokerRow(2, BrokerHealth.ALIVE, 42_000));

        AliveSet.Decision d = AliveSet.decide(List.of(0, 2), Map.of(2, beat(2, true, false, NOW - TIMEOUT - 1)), 0, previous,
                NOW, TIMEOUT);

        assertThat(d.rows()).contains(new BrokerRow(2, BrokerHealth.DEAD, 42_000));
        assertThat(d.eligible()).containsExactly(0);
    }

    @Test
    void aRegisteredBrokerThatNeverBeatIsDeadButStaysRegistered() {
        AliveSet.Decision d = AliveSet.decide(List.of(0, 1, 2), Map.of(), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.rows()).extracting(BrokerRow::id).containsExactly(0, 1, 2);
        assertThat(d.rows()).extracting(BrokerRow::health).containsExactly(BrokerHealth.ALIVE, BrokerHealth.DEAD, BrokerHealth.DEAD);
    }

    @Test
    void anUnhealthyBrokerIsFencedThoughConnected() {
        AliveSet.Decision d = AliveSet.decide(List.of(0, 1), Map.of(1, beat(1, false, false, NOW)), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.rows()).contains(new BrokerRow(1, BrokerHealth.DEAD, 0L));
        assertThat(d.eligible()).containsExactly(0);
    }

    @Test
    void aDrainingBrokerLeadsNothingButStaysInTheDivisor() {
        AliveSet.Decision d = AliveSet.decide(List.of(0, 1), Map.of(1, beat(1, true, true, NOW)), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.rows()).contains(new BrokerRow(1, BrokerHealth.DRAINING, 0L));
        assertThat(d.eligible()).containsExactly(0);
    }

    @Test
    void theControllerPinsItselfEvenWhenItsOwnTickSaysDraining() {
        AliveSet.Decision d = AliveSet.decide(List.of(), Map.of(0, beat(0, true, true, NOW)), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.rows()).containsExactly(new BrokerRow(0, BrokerHealth.DRAINING, 0L));
        assertThat(d.eligible()).containsExactly(0);
    }

    @Test
    void aBrokerBeatingBeforeItsEndpointIsListedCountsAsRegistered() {
        AliveSet.Decision d = AliveSet.decide(List.of(0), Map.of(3, beat(3, true, false, NOW)), 0, List.of(), NOW, TIMEOUT);

        assertThat(d.eligible()).containsExactly(0, 3);
    }

    @Test
    void aDeregisteredBrokersOldBeatDoesNotKeepItRegistered() {
        AliveSet.Decision d = AliveSet.decide(List.of(0), Map.of(5, beat(5, true, false, NOW - TIMEOUT - 1)), 0, List.of(),
                NOW, TIMEOUT);

        assertThat(d.rows()).extracting(BrokerRow::id).containsExactly(0);
    }

    private static Heartbeat beat(int id, boolean healthy, boolean draining, long at) {
        return new Heartbeat(id, healthy, draining, at);
    }
}
