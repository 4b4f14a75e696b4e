package io.kaas.application.cluster;

import io.kaas.application.port.out.AssignmentStore;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.AssignmentFence;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker following {@code assignment.json}: on each ASSIGNMENT_CHANGED push and on a 1 s poll it
 * reads the file and takes what the {@link AssignmentFence} lets through (nothing from a controller
 * older than the newest Lease epoch seen, nothing not newer than what it serves). Every leadership
 * answer the broker gives comes from {@link #current()}; the {@link TakeoverDriver} makes the open
 * logs match it.
 */
public final class AssignmentFollower {
    private static final Logger LOG = LoggerFactory.getLogger(AssignmentFollower.class);

    private final AssignmentStore store;
    private final int self;
    private final LongSupplier leaseEpochSeen;
    private volatile Assignment current;
    private long lastRefused = -1;

    /** @param leaseEpochSeen the highest controller epoch this broker has seen on the Lease */
    public AssignmentFollower(AssignmentStore store, int self, LongSupplier leaseEpochSeen) {
        this.store = store;
        this.self = self;
        this.leaseEpochSeen = leaseEpochSeen;
    }

    /** Reads the file and takes it if it is newer and from a current controller. File I/O: a control thread. */
    public synchronized AssignmentFence.Verdict refresh() {
        Optional<Assignment> read = store.read();
        if (read.isEmpty()) {
            return AssignmentFence.Verdict.NOT_NEWER;
        }
        Assignment candidate = read.get();
        AssignmentFence.Verdict verdict = AssignmentFence.check(current, candidate, leaseEpochSeen.getAsLong());
        switch (verdict) {
            case ACCEPT -> {
                LOG.info("assignment {} of controller {} (epoch {}) taken: {} partitions led here", candidate.version(),
                        candidate.controllerId(), candidate.controllerEpoch(), candidate.ledBy(self).size());
                current = candidate;
            }
            case STALE_CONTROLLER -> {
                if (lastRefused != candidate.version()) {
                    LOG.warn("assignment {} refused: written at controller epoch {}, below the newest seen ({})",
                            candidate.version(), candidate.controllerEpoch(),
                            Math.max(leaseEpochSeen.getAsLong(), current == null ? 0 : current.controllerEpoch()));
                    lastRefused = candidate.version();
                }
            }
            case NOT_NEWER -> { }
        }
        return verdict;
    }

    /** The assignment this broker serves; empty before its first. Lock-free. */
    public Optional<Assignment> current() {
        return Optional.ofNullable(current);
    }
}
