package io.kaas.application.port.out;

import java.util.Optional;

/**
 * The controller Lease (coordination.k8s.io/v1 Lease {@code kaas-controller} in the broker's
 * namespace): read it, and write it only if nobody wrote it since it was read (the API server's
 * optimistic concurrency on resourceVersion), so of two brokers racing for it exactly one wins.
 * Who may take, renew or release it is decided by {@code io.kaas.application.controller.ControllerLease};
 * this port only stores. Both calls may block on the network: never from an event loop, never on
 * the Produce/Fetch path.
 */
public interface LeaseStore {

    /**
     * The Lease as stored; empty when it does not exist.
     *
     * @throws LeaseStoreException when the API server cannot be reached or refuses
     */
    Optional<Lease> read();

    /**
     * Stores {@code next} if the Lease is still the one {@code expected} (same version), or does not
     * exist when {@code expected} is empty.
     *
     * @return the stored Lease with its new version; empty when another writer came first (409)
     * @throws LeaseStoreException when the API server cannot be reached or refuses
     */
    Optional<Lease> write(Optional<Lease> expected, Lease next);

    /**
     * The Lease's content.
     *
     * @param holder          the holder's identity (its pod name); empty when released
     * @param transitions     {@code leaseTransitions}: rises by one each time the holder changes; the cluster epoch
     * @param durationSeconds how long a holder that stops renewing keeps it
     * @param renewTimeMs     when the holder last renewed it, on the holder's clock (informational)
     * @param version         the store's version of this content (resourceVersion); null before it is stored
     */
    record Lease(String holder, long transitions, int durationSeconds, long acquireTimeMs, long renewTimeMs,
                 String version) {
        public Lease withVersion(String newVersion) {
            return new Lease(holder, transitions, durationSeconds, acquireTimeMs, renewTimeMs, newVersion);
        }
    }

    /** The API server could not be reached, or refused for a reason other than a lost race. */
    final class LeaseStoreException extends RuntimeException {
        public LeaseStoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
