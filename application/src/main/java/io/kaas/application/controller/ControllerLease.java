package io.kaas.application.controller;

import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.LeaseStore;
import io.kaas.application.port.out.LeaseStore.Lease;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's part in the controller election, one round per {@link #tick()}: renew the Lease
 * while holding it, take it when it is free (released, never created, or not renewed for its
 * duration), otherwise watch it. Expiry is judged on this broker's clock, from when it first saw
 * the Lease's current version, never from the holder's timestamps (clocks differ between pods).
 * Every change of holder raises {@code leaseTransitions}, the cluster epoch; nothing here ever
 * lowers it. One control thread ticks it; other threads (probes, shutdown) may read its views.
 */
public final class ControllerLease {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerLease.class);

    private final LeaseStore store;
    private final Clock clock;
    private final String self;
    private final int durationSeconds;

    private volatile Optional<Lease> observed = Optional.empty();
    private volatile long observedSinceMs;
    /** When a round last read the Lease from the API server. */
    private volatile long readAtMs = Long.MIN_VALUE;
    /** When this broker last stored the Lease as its holder; it holds it until then + duration. */
    private volatile long heldSinceRenewMs = Long.MIN_VALUE;
    private volatile long highestEpoch;

    /**
     * @param self            this broker's identity in the Lease (its pod name)
     * @param durationSeconds how long a holder that stops renewing keeps the Lease
     */
    public ControllerLease(LeaseStore store, Clock clock, String self, int durationSeconds) {
        this.store = store;
        this.clock = clock;
        this.self = self;
        this.durationSeconds = durationSeconds;
    }

    /** What one round saw: the holder ("" when none), the epoch, and whether it is this broker. */
    public record View(String holder, long epoch, boolean heldBySelf) {
    }

    /**
     * One election round.
     *
     * @throws LeaseStore.LeaseStoreException when the API server cannot be reached: the caller keeps
     *         its last view, and {@link #holds()} turns false once the Lease would have run out
     */
    public View tick() {
        long now = clock.nowMs();
        Optional<Lease> current = store.read();
        readAtMs = now;
        noteObserved(current, now);
        Lease lease = current.orElse(null);
        if (lease != null && lease.holder().equals(self)) {
            write(current, new Lease(self, lease.transitions(), durationSeconds, lease.acquireTimeMs(), now, null), now);
        } else if (lease == null || lease.holder().isEmpty() || expired(now, lease)) {
            // Above every epoch seen, not just the Lease's: a Lease recreated after the API server lost it
            // (or an assignment written under a later one) must not take the cluster back to an old epoch.
            long epoch = Math.max(lease == null ? 0 : lease.transitions(), highestEpoch) + 1;
            if (write(current, new Lease(self, epoch, durationSeconds, now, now, null), now)) {
                LOG.info("controller lease taken by {} at epoch {} (was {})", self, epoch,
                        lease == null || lease.holder().isEmpty() ? "free" : lease.holder());
            }
        }
        return view();
    }

    /**
     * A round of a draining broker: it must not take the Lease (nor keep it), or it would go on
     * controlling and pinning itself alive while it waits for its partitions to move away. Gives the
     * Lease up if it holds it, and otherwise only watches.
     */
    public View stepAside() {
        long now = clock.nowMs();
        Optional<Lease> current = store.read();
        readAtMs = now;
        noteObserved(current, now);
        if (current.isPresent() && current.get().holder().equals(self)) {
            free(current.get(), now); // compare-and-set on the version just read: safe whether or not it still holds
        }
        return view();
    }

    /** Gives the Lease up (a draining controller), keeping its epoch so the fence never rewinds. */
    public void release() {
        Optional<Lease> current = observed;
        if (holds() && current.isPresent()) {
            free(current.get(), clock.nowMs());
        }
    }

    private void free(Lease lease, long now) {
        if (write(Optional.of(lease), new Lease("", lease.transitions(), durationSeconds, lease.acquireTimeMs(), now, null),
                now)) {
            LOG.info("controller lease released by {} at epoch {}", self, lease.transitions());
        }
        heldSinceRenewMs = Long.MIN_VALUE;
    }

    /**
     * Whether this broker holds the Lease now: it stored it as holder less than four fifths of a
     * duration ago. Others wait a whole duration from when they saw that write, so the holder lets
     * go first even when pod clocks run at slightly different rates.
     */
    public boolean holds() {
        return heldSinceRenewMs != Long.MIN_VALUE && clock.nowMs() - heldSinceRenewMs < durationSeconds * 800L;
    }

    /**
     * Whether a round read the Lease within the last {@code withinMs} and saw it unchanged for longer
     * than its holder acts on it (four fifths of its duration): no controller is acting, and none can
     * until a new one takes the Lease.
     */
    public boolean seenAbandoned(long withinMs) {
        long now = clock.nowMs();
        Optional<Lease> lease = observed;
        return readAtMs != Long.MIN_VALUE && now - readAtMs < withinMs && lease.isPresent()
                && now - observedSinceMs >= lease.get().durationSeconds() * 800L;
    }

    /** Notes an epoch seen elsewhere (the assignment on the volume): the Lease is never taken at or below it. */
    public void noteEpoch(long epoch) {
        highestEpoch = Math.max(highestEpoch, epoch);
    }

    /** The highest epoch this broker has seen on the Lease: the stale-controller fence's floor. */
    public long highestEpoch() {
        return highestEpoch;
    }

    /** What the last round saw. */
    public View view() {
        Lease lease = observed.orElse(null);
        return lease == null ? new View("", highestEpoch, false)
                : new View(lease.holder(), lease.transitions(), holds() && lease.holder().equals(self));
    }

    private boolean write(Optional<Lease> expected, Lease next, long now) {
        Optional<Lease> stored = store.write(expected, next);
        if (stored.isEmpty()) {
            return false; // another broker wrote first: the next round reads what it wrote
        }
        noteObserved(stored, now);
        heldSinceRenewMs = stored.get().holder().equals(self) ? now : Long.MIN_VALUE;
        return true;
    }

    private void noteObserved(Optional<Lease> lease, long now) {
        if (!Objects.equals(observed.map(Lease::version), lease.map(Lease::version))) {
            observedSinceMs = now;
        }
        observed = lease;
        lease.ifPresent(l -> highestEpoch = Math.max(highestEpoch, l.transitions()));
        if (lease.isEmpty() || !lease.get().holder().equals(self)) {
            heldSinceRenewMs = Long.MIN_VALUE;
        }
    }

    /** Not renewed for a whole duration since this broker first saw its current version. */
    private boolean expired(long now, Lease lease) {
        return now - observedSinceMs >= lease.durationSeconds() * 1000L;
    }
}
