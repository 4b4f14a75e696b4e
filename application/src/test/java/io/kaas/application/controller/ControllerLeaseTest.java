package io.kaas.application.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.memory.InMemoryLeaseStore;
import io.kaas.application.port.out.LeaseStore;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ControllerLeaseTest {
    private static final int DURATION_S = 15;
    private final ManualClock clock = new ManualClock();
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final ControllerLease kaas0 = new ControllerLease(store, clock, "kaas-0", DURATION_S);
    private final ControllerLease kaas1 = new ControllerLease(store, clock, "kaas-1", DURATION_S);

    @Test
    void theFirstBrokerTakesAMissingLeaseAtEpochOne() {
        assertThat(kaas0.tick()).isEqualTo(new ControllerLease.View("kaas-0", 1, true));
        assertThat(kaas0.holds()).isTrue();
        assertThat(kaas1.tick()).isEqualTo(new ControllerLease.View("kaas-0", 1, false));
        assertThat(kaas1.holds()).isFalse();
    }

    @Test
    void aRenewedLeaseIsNeverTaken() {
        kaas0.tick();
        for (int i = 0; i < 60; i++) {
            clock.advance(1_000);
            kaas0.tick();
            assertThat(kaas1.tick().holder()).isEqualTo("kaas-0");
        }
        assertThat(kaas1.highestEpoch()).isOne();
    }

    @Test
    void aLeaseNotRenewedForItsDurationIsTakenAtTheNextEpoch() {
        kaas0.tick();
        kaas1.tick(); // kaas-1 first sees this version now

        clock.advance(DURATION_S * 800L - 1);
        assertThat(kaas0.holds()).isTrue();
        clock.advance(1);
        assertThat(kaas0.holds()).as("the holder lets go a fifth of a duration before others may take it").isFalse();
        clock.advance(DURATION_S * 200L - 1);
        assertThat(kaas1.tick().heldBySelf()).isFalse();
        clock.advance(1);

        assertThat(kaas1.tick()).isEqualTo(new ControllerLease.View("kaas-1", 2, true));
        assertThat(kaas0.holds()).isFalse();
        assertThat(kaas0.tick()).as("the old holder sees it lost").isEqualTo(new ControllerLease.View("kaas-1", 2, false));
        assertThat(kaas0.highestEpoch()).isEqualTo(2);
    }

    @Test
    void expiryCountsFromWhenThisBrokerSawTheVersionNotFromTheHoldersClock() {
        kaas0.tick();
        clock.advance(60_000); // kaas-1 starts late: it must still wait a whole duration

        assertThat(kaas1.tick().heldBySelf()).isFalse();
        clock.advance(DURATION_S * 1000L);
        assertThat(kaas1.tick().heldBySelf()).isTrue();
    }

    @Test
    void aReleasedLeaseIsTakenAtOnceAndTheEpochNeverRewinds() {
        kaas0.tick();
        kaas0.release();
        assertThat(kaas0.holds()).isFalse();
        assertThat(store.read()).hasValueSatisfying(l -> {
            assertThat(l.holder()).isEmpty();
            assertThat(l.transitions()).isOne();
        });

        assertThat(kaas1.tick()).isEqualTo(new ControllerLease.View("kaas-1", 2, true));
    }

    @Test
    void aLeaseTheApiServerLostIsRecreatedAboveEveryEpochSeen() {
        kaas0.tick();
        kaas1.tick();
        clock.advance(DURATION_S * 1000L);
        kaas1.tick(); // epoch 2
        InMemoryLeaseStore fresh = new InMemoryLeaseStore(); // the API server came back empty
        ControllerLease kaas1Again = new ControllerLease(fresh, clock, "kaas-1", DURATION_S);
        kaas1Again.noteEpoch(kaas1.highestEpoch());

        assertThat(kaas1Again.tick()).isEqualTo(new ControllerLease.View("kaas-1", 3, true));
    }

    @Test
    void ofTwoBrokersRacingForAFreeLeaseOneWins() {
        LeaseStore racing = new LeaseStore() {
            @Override
            public Optional<Lease> read() {
                return Optional.empty(); // both read "no Lease"
            }

            @Override
            public Optional<Lease> write(Optional<Lease> expected, Lease next) {
                return store.write(expected, next);
            }
        };
        ControllerLease a = new ControllerLease(racing, clock, "kaas-0", DURATION_S);
        ControllerLease b = new ControllerLease(racing, clock, "kaas-1", DURATION_S);

        assertThat(a.tick().heldBySelf()).isTrue();
        assertThat(b.tick().heldBySelf()).isFalse();
        assertThat(b.holds()).isFalse();
    }

    @Test
    void aHolderCutOffFromTheApiServerStopsHoldingWhenItsLeaseWouldRunOut() {
        kaas0.tick();
        store.unreachable(true);

        assertThatThrownBy(kaas0::tick).isInstanceOf(LeaseStore.LeaseStoreException.class);
        clock.advance(DURATION_S * 800L - 1);
        assertThat(kaas0.holds()).isTrue();
        clock.advance(1);
        assertThat(kaas0.holds()).isFalse();

        store.unreachable(false);
        assertThat(kaas0.tick()).as("nobody took it meanwhile: it renews").isEqualTo(new ControllerLease.View("kaas-0", 1, true));
    }

    @Test
    void aDrainingBrokerGivesTheLeaseUpAndNeverTakesItBack() {
        kaas0.tick();
        assertThat(kaas0.stepAside()).isEqualTo(new ControllerLease.View("", 1, false));
        assertThat(kaas0.holds()).isFalse();

        clock.advance(DURATION_S * 2_000L);
        assertThat(kaas0.stepAside().holder()).as("free for others, not for the draining broker").isEmpty();
        assertThat(kaas1.tick()).isEqualTo(new ControllerLease.View("kaas-1", 2, true));
    }
}
