package io.kaas.application.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kaas.application.controller.ControllerLease;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.memory.InMemoryLeaseStore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ControllerContactFenceTest {
    private static final int LEASE_S = 10;
    private static final long TIMEOUT_MS = 3_000;

    private final ManualClock clock = new ManualClock();
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final ControllerLease controller = new ControllerLease(store, clock, "kaas-0", LEASE_S);
    private final ControllerLease lease = new ControllerLease(store, clock, "kaas-1", LEASE_S);
    private final AtomicLong lastAck = new AtomicLong(Long.MIN_VALUE);
    private final ControllerContactFence fence = new ControllerContactFence(lease,
            ms -> lastAck.get() != Long.MIN_VALUE && clock.nowMs() - lastAck.get() < ms, ms -> false, TIMEOUT_MS);

    @Test
    void aBrokerNeverAcknowledgedByTheControllerIsFenced() {
        controller.tick();
        lease.tick();

        assertThat(fence.fenced()).isTrue();
    }

    @Test
    void writesStopOnceNoBeatWasAcknowledgedForTheHeartbeatTimeoutAndResumeWithTheNextAck() {
        controller.tick();
        lease.tick();
        lastAck.set(clock.nowMs());

        clock.advance(TIMEOUT_MS - 1);
        assertThat(fence.fenced()).isFalse();
        clock.advance(1);
        assertThat(fence.fenced()).as("the controller counts this broker dead now").isTrue();

        lastAck.set(clock.nowMs());
        assertThat(fence.fenced()).isFalse();
    }

    @Test
    void aControllerThatCannotRenewStaysOpenOnlyWhileEveryBrokerStillBeatsIt() {
        AtomicBoolean followed = new AtomicBoolean(true);
        ControllerContactFence own = new ControllerContactFence(controller, ms -> false, ms -> followed.get(), TIMEOUT_MS);
        controller.tick();
        assertThat(own.fenced()).isFalse();

        store.unreachable(true); // it cannot renew: it lets go at four fifths of the duration
        clock.advance(LEASE_S * 800L);
        catchThrowable(controller::tick);
        assertThat(controller.holds()).isFalse();
        assertThat(own.fenced()).as("nobody can have taken over while all still follow it").isFalse();

        followed.set(false); // a broker stopped beating it: it may have found a new controller
        assertThat(own.fenced()).isTrue();
    }

    @Test
    void aControllerThatStoppedRenewingFencesNobodyUntilAnotherWins() {
        ControllerLease contender = new ControllerLease(store, clock, "kaas-2", LEASE_S);
        controller.tick();
        lease.tick();
        contender.tick();
        lastAck.set(clock.nowMs());

        // The controller dies: no acks, no renewals. Between the timeout and four fifths of the
        // Lease it might still be acting (cut off from this broker only): fenced.
        clock.advance(TIMEOUT_MS);
        lease.tick();
        assertThat(fence.fenced()).isTrue();
        clock.advance(LEASE_S * 800L - TIMEOUT_MS);
        lease.tick();
        assertThat(fence.fenced()).as("the dead holder stopped acting; nobody else may yet").isFalse();

        clock.advance(LEASE_S * 200L);
        assertThat(contender.tick().heldBySelf()).isTrue();
        lease.tick();
        assertThat(fence.fenced()).as("a new controller could count this broker dead").isTrue();
        lastAck.set(clock.nowMs());
        assertThat(fence.fenced()).isFalse();
    }

    @Test
    void aBrokerThatCannotReadTheLeaseCannotTellTheControllerIsGone() {
        controller.tick();
        lease.tick();
        lastAck.set(clock.nowMs());
        store.unreachable(true);

        clock.advance(LEASE_S * 1000L);
        catchThrowable(lease::tick);

        assertThat(fence.fenced()).isTrue();
    }
}
