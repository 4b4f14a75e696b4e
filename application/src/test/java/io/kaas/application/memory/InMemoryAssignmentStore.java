package io.kaas.application.memory;

import io.kaas.application.port.out.AssignmentStore;
import io.kaas.domain.cluster.Assignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code assignment.json} in memory, shared by the brokers of a test, with every write kept in order. */
public final class InMemoryAssignmentStore implements AssignmentStore {
    private final List<Assignment> written = new ArrayList<>();

    @Override
    public synchronized Optional<Assignment> read() {
        return written.isEmpty() ? Optional.empty() : Optional.of(written.get(written.size() - 1));
    }

    @Override
    public synchronized void write(Assignment assignment) {
        written.add(assignment);
    }

    /** Every assignment written, oldest first. */
    public synchronized List<Assignment> written() {
        return List.copyOf(written);
    }
}
