package io.kaas.application.memory;

import io.kaas.application.port.out.LeaseStore;
import java.util.Optional;

/**
 * A Lease with the API server's optimistic concurrency: a write wins only from the version it
 * read. {@link #unreachable} plays an API server that is gone.
 */
public final class InMemoryLeaseStore implements LeaseStore {
    private Lease lease;
    private long versions;
    private boolean unreachable;

    @Override
    public synchronized Optional<Lease> read() {
        check();
        return Optional.ofNullable(lease);
    }

    @Override
    public synchronized Optional<Lease> write(Optional<Lease> expected, Lease next) {
        check();
        String have = lease == null ? null : lease.version();
        String want = expected.map(Lease::version).orElse(null);
        if (have == null ? want != null : !have.equals(want)) {
            return Optional.empty();
        }
        lease = next.withVersion(Long.toString(++versions));
        return Optional.of(lease);
    }

    /** Makes every call fail as an unreachable API server does, or answer again. */
    public synchronized void unreachable(boolean gone) {
        unreachable = gone;
    }

    private void check() {
        if (unreachable) {
            throw new LeaseStoreException("connection refused", null);
        }
    }
}
